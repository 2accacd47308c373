// The direct POSIX calls of the varlink modules: the socket file's life cycle, SO_PEERCRED and user
// names (descriptor passing and the blocking client's socket have files of their own).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Linux `struct ucred`, which Glibc's Swift module hides behind `_GNU_SOURCE`; same layout.
package struct UnixCredentials: Sendable {
    package var pid: Int32 = 0
    package var uid: UInt32 = 0
    package var gid: UInt32 = 0

    package init() {}
}

package enum Posix {
    /// The credentials the kernel recorded at connect() for the peer of a socket we hold directly.
    package static func peer(ofSocket descriptor: Int32) -> VarlinkPeer? {
        #if os(Linux)
        var credentials = UnixCredentials()
        var length = socklen_t(MemoryLayout<UnixCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return VarlinkPeer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        #else
        return nil
        #endif
    }

    package enum FileKind: Equatable {
        case missing
        case socket
        case other
    }

    /// Identifies a file, so the server removes the socket it bound and not a successor's.
    package struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    package static func kind(at path: String) -> FileKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFSOCK ? .socket : .other
    }

    package static func identity(at path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The uid of the user called `name` (through NSS, so LDAP users count), or nil when none is.
    package static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 1024
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            let status = getpwnam_r(name, &entry, &buffer, buffer.count, &result)
            if status == ERANGE {
                size *= 4
                continue
            }
            return status == 0 && result != nil ? entry.pw_uid : nil
        }
        return nil
    }

    package static func setPermissions(_ path: String, _ mode: mode_t) throws(PosixError) {
        guard chmod(path, mode) == 0 else { throw PosixError(operation: "chmod \(path)", code: errno) }
    }

    package static func remove(_ path: String) throws(PosixError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw PosixError(operation: "unlink \(path)", code: errno) }
    }

    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A failed POSIX call, with the errno text.
package struct PosixError: Error, CustomStringConvertible {
    package let operation: String
    package let code: Int32

    package var description: String { "\(self.operation): \(Posix.describe(errno: self.code))" }
}
