#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Posix
import Synchronization

/// Asks a polled file system whether it answers, on a thread of its own with a time limit, so a
/// hung NFS server or a stopped FUSE daemon holds that thread, never Swift's pool.
///
/// A thread stuck in the kernel on a hung mount cannot be cancelled: while one is still out, the
/// probe starts no other (its asker already heard stalled), so a mount holds at most one probe
/// thread however many polls go by.
final class MountProbe: Sendable {
    /// How long a file system may take to answer a stat and an open of its folder.
    static let timeout: Duration = .seconds(2)

    /// True while a probe thread has not come back.
    private let outstanding = Atomic(false)

    /// Whether `folder` answers within `timeout`: stats it and opens it for listing, both of
    /// which go to the server (or the FUSE daemon) once its cached attributes are old. Nil when
    /// an earlier probe's thread is still out: whoever started it has been told.
    func answers(_ folder: PathBytes, within timeout: Duration = MountProbe.timeout) async -> Bool? {
        guard !outstanding.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        let reply = OneReply()
        return await withCheckedContinuation { continuation in
            reply.set(continuation)
            let started = DetachedThread.start(name: "photod-probe") {
                _ = FileSystem.linkStatus(folder)
                if case .success(let descriptor) = SafeOpener().openFolder(folder) { close(descriptor) }
                self.outstanding.store(false, ordering: .releasing)
                reply.resume(true)
            }
            guard started else {
                self.outstanding.store(false, ordering: .releasing)
                reply.resume(true)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                reply.resume(false)
            }
        }
    }
}

/// A continuation resumed by whichever comes first, the probe thread or its timeout.
private final class OneReply: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    /// Keeps the continuation to resume.
    func set(_ waiting: CheckedContinuation<Bool, Never>) {
        continuation.withLock { $0 = waiting }
    }

    /// Resumes it with `answered` the first time; later calls do nothing.
    func resume(_ answered: Bool) {
        continuation.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(returning: answered)
    }
}
