import FileSystem
import NIOPosix
import Synchronization

/// Threads of its own for each polled folder (a root or mount on NFS, SMB, FUSE…), so that a
/// file-system call that hangs there (a hung server, a stopped FUSE daemon) holds only that
/// folder's threads: never Swift's pool, the shared file pool or another mount's work.
///
/// Work given up on while its threads are stuck keeps them: the folder gets fresh threads for
/// its next pass (`retire`), and the stuck ones are let go once their calls come back. At most
/// `maxRetired` sets can be stuck at once; past that, a folder gets no new work until one returns.
final class FolderThreads: Sendable {
    /// Threads in each folder's set: a pass reads as many files at once as a local one.
    let threadsPerFolder: Int
    /// Sets given up on and still stuck, across all folders, before no more are made.
    static let maxRetired = 8

    private let current = Mutex<[PathBytes: FolderExecutor]>([:])
    private let retired = Atomic(0)

    init(threadsPerFolder: Int) {
        self.threadsPerFolder = max(1, threadsPerFolder)
    }

    /// The threads for `folder`, started on first use; nil when too many sets are stuck already.
    func executor(for folder: PathBytes) -> FolderExecutor? {
        current.withLock { sets in
            if let existing = sets[folder] { return existing }
            guard retired.load(ordering: .relaxed) < Self.maxRetired else { return nil }
            let made = FolderExecutor(threads: threadsPerFolder)
            sets[folder] = made
            return made
        }
    }

    /// Gives `folder`'s current threads up (a pass was abandoned in them); `stillOut` ends when
    /// that pass does, and then the threads are shut down.
    func retire(_ folder: PathBytes, stillOut: Task<Void, Never>) {
        guard let executor = current.withLock({ $0.removeValue(forKey: folder) }) else { return }
        retired.add(1, ordering: .relaxed)
        Task {
            await stillOut.value
            self.retired.subtract(1, ordering: .relaxed)
            executor.shutDown()
        }
    }

    /// Shuts every current set down, without waiting for a stuck one (photod is stopping).
    func shutDown() {
        let all = current.withLock { sets in
            defer { sets.removeAll() }
            return Array(sets.values)
        }
        for executor in all { executor.shutDown() }
    }
}

/// A thread pool that is also a task executor: async code run with it as the preference does its
/// blocking calls on these threads, and `pool` runs a scanner's file work on the same ones.
final class FolderExecutor: TaskExecutor, Sendable {
    /// The threads, for `NIOThreadPool.runIfActive`.
    let pool: NIOThreadPool

    init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    /// Runs `job` on one of the threads.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // A pool already shut down calls the item at once on this thread: the job still runs.
        pool.submit { _ in job.runSynchronously(on: executor) }
    }

    /// Stops the threads once their work returns, without waiting here.
    func shutDown() {
        pool.shutdownGracefully { _ in }
    }
}
