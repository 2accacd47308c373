#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Why a client could not be identified; the caller refuses the client rather than guessing.
enum AppIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The process exited (or its pid now names another user's process) before it could be identified.
    case processGone(pid: Int32)
    /// A /proc file of a live process could not be read (for example EACCES for another user's process).
    case unreadable(pid: Int32, what: String, errno: Int32)

    /// One line for logs and error replies.
    var description: String {
        switch self {
        case .processGone(let pid):
            return "process \(pid) exited before it could be identified"
        case .unreadable(let pid, let what, let errno):
            let name = POSIXErrorCode(rawValue: errno).map { String(describing: $0) } ?? "error"
            return "cannot read /proc/\(pid)/\(what): \(name) (errno \(errno))"
        }
    }
}
