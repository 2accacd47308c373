import Posix

/// A failure of the inotify layer.
public enum WatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kernel has no watches left for this user (`ENOSPC`, `fs.inotify.max_user_watches`).
    case noWatchesLeft
    /// A system call failed with `errno`.
    case system(operation: String, errno: Int32)

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .noWatchesLeft:
            "no inotify watches left (raise fs.inotify.max_user_watches)"
        case .system(let operation, let errno):
            SystemCallError(operation, errno: errno).description
        }
    }
}
