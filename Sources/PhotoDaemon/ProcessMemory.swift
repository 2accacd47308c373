import CMalloc
import Synchronization

/// glibc's malloc, held to what a daemon on a small machine needs.
///
/// glibc gives threads that contend for the heap arenas of their own, up to eight per core,
/// and each arena keeps what its threads freed. photod's threads (file readers, the index's
/// writer and readers, Swift's and NIO's) hand buffers to one another, so memory freed in one
/// arena is not reused by the next thread that allocates: measured at 100,000 photos, idle
/// RSS grew by 19 MiB over one rescan.
///
/// Both settings are the photod process's own (its `main` calls `tuneForDaemon()`): trimming
/// unmaps freed heap pages under every thread of the process, so a process that hosts other
/// code (the test process, dozens of in-process daemons, Foundation starting Python) is left
/// as glibc sets it up.
public enum ProcessMemory {
    private static let trimming = Atomic(false)

    /// Limits the arenas to two, as the thread caches absorb most contention, and lets
    /// `giveBack()` trim. Call it first, before threads start, so no thread has made an arena
    /// of its own yet.
    public static func tuneForDaemon() {
        _ = mallopt(M_ARENA_MAX, 2)
        trimming.store(true, ordering: .relaxed)
    }

    /// Returns freed memory of every arena to the system (in photod; nothing elsewhere): after
    /// a big reconcile, whose buffers the idle daemon does not need again.
    static func giveBack() {
        guard trimming.load(ordering: .relaxed) else { return }
        _ = malloc_trim(0)
    }
}
