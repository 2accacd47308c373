#if canImport(Glibc)
import Glibc
#endif

/// The calls on a socket file's path a server makes over its life: is something there, make it
/// private, remove it.
public enum SocketFile {
    /// What is at a path, as far as a server about to bind there cares.
    public enum Kind: Sendable, Equatable {
        case missing
        case socket
        case other
    }

    /// What `path` names, not following a final symlink.
    public static func kind(at path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFSOCK ? .socket : .other
    }

    /// `chmod(path, mode)`.
    public static func setPermissions(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        guard chmod(path, mode) == 0 else { throw SystemCallError("chmod \(path)", errno: errno) }
    }

    /// `unlink(path)`; a path already gone is not a failure.
    public static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError("unlink \(path)", errno: errno) }
    }
}
