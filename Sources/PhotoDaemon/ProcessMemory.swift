import CMalloc
import Posix
import Store
import Synchronization

/// glibc's malloc and the mapped code, held to what a daemon on a small machine needs.
///
/// glibc gives threads that contend for the heap arenas of their own, up to eight per core,
/// and each arena keeps what its threads freed. photod's threads (file readers, the index's
/// writer and readers, Swift's and NIO's) hand buffers to one another, so memory freed in one
/// arena is not reused by the next thread that allocates, and idle RSS grew over each rescan
/// (bench/README.md, "Figures behind the code").
///
/// Both settings are the photod process's own (its `main` calls `tuneForDaemon()`): trimming
/// unmaps freed heap pages under every thread of the process, so a process that hosts other
/// code (the test process, dozens of in-process daemons, Foundation starting Python) is left
/// as glibc sets it up.
///
/// Code: a page of photod's code counts in its resident memory while mapped, and start-up and
/// a big reconcile map most of it (fault-around maps 64 KiB for each page run); once they are
/// over, `CodePages` unmaps it and the idle daemon maps back only what it runs.
public enum ProcessMemory {
    private static let tuned = Atomic(false)

    /// The smallest block malloc maps on its own, so freeing it returns it to the system at once.
    /// glibc raises this threshold by itself up to 32 MiB after the first large block is freed;
    /// then every image reply (a PNG, the buffer it was read into) came from the heap, which kept
    /// it (bench/README.md, "Figures behind the code").
    static let mappedBlock = 1 << 20

    /// Limits the arenas to two, as the thread caches absorb most contention, keeps blocks of
    /// `mappedBlock` and more in mappings of their own, and lets `giveBack()` trim. Call it
    /// first, before threads start, so no thread has made an arena of its own yet.
    public static func tuneForDaemon() {
        _ = mallopt(M_ARENA_MAX, 2)
        _ = mallopt(M_MMAP_THRESHOLD, Int32(mappedBlock))
        tuned.store(true, ordering: .relaxed)
    }

    /// Lets apps' queries run below the owner's CPU priority (`Store.yieldSharedReaders()`);
    /// photod's own, like `tuneForDaemon()`.
    public static func yieldAppWork() {
        Store.yieldSharedReaders()
    }

    /// Unmaps start-up's code once photod is ready (in photod; nothing elsewhere): the options,
    /// the configuration, the schema and the start-up reconcile's paths do not run again while
    /// it idles.
    static func startedUp() {
        guard tuned.load(ordering: .relaxed) else { return }
        CodePages.release()
    }

    /// How long after a big reconcile its code is unmapped once more.
    static let settling = Duration.seconds(1)

    /// Unmaps the code `settling` after a big reconcile (in photod; nothing elsewhere), once its
    /// log line, the Rescan call's reply and the closing connection have run too: unmapped any
    /// sooner, they left photod 2-4 MiB above its size after ready (bench/README.md, "Idle memory").
    static func releaseCodeOnceSettled() {
        guard tuned.load(ordering: .relaxed) else { return }
        Task.detached(priority: .background) {
            try? await Task.sleep(for: settling)
            CodePages.release()
        }
    }

    /// Returns freed memory of every arena to the system (in photod; nothing elsewhere): after
    /// a big reconcile, whose buffers the idle daemon does not need again, and between a bulk
    /// load's writes and its index builds. Code is not unmapped here: the build runs right after,
    /// and after a reconcile `releaseCodeOnceSettled()` does it once the rest has run.
    static func giveBack() {
        guard tuned.load(ordering: .relaxed) else { return }
        _ = malloc_trim(0)
    }
}
