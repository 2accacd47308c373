// The folders that lead to a Unix socket decide who can put another socket in its place, so they
// are checked before a server binds there or a client trusts the runtime directory.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A folder on the way to a socket that another user controls or could control; it is not
/// used, changed or repaired.
public struct SocketFolderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the folder.
    public enum Problem: Equatable, Sendable {
        /// A symbolic link where a private folder must be.
        case symbolicLink
        /// Neither a folder nor a link to one.
        case notAFolder
        /// Owned by this uid, which is neither this process's user nor root.
        case ownedBy(UInt32)
        /// A private folder with these permission bits open to group or others.
        case openToOthers(mode: UInt32)
        /// A folder above the private ones that group or others may write to without the sticky bit.
        case writableByOthers(mode: UInt32)
        /// The system call failed with this errno.
        case failed(operation: String, errno: Int32)
    }

    /// The folder refused.
    public let path: String
    /// Why.
    public let problem: Problem

    /// "refusing FOLDER: WHY; …", with what to do about it.
    public var description: String {
        let why: String
        switch problem {
        case .symbolicLink:
            why = "it is a symbolic link, not a folder of your own"
        case .notAFolder:
            why = "it is not a folder"
        case .ownedBy(let uid):
            why = "it belongs to uid \(uid), not to you (uid \(geteuid()))"
        case .openToOthers(let mode):
            why = "its mode is \(Self.octal(mode)); it must be 0700 (only you)"
        case .writableByOthers(let mode):
            why = "its mode \(Self.octal(mode)) lets other users replace what is inside"
        case .failed(let operation, let code):
            return "cannot use the socket folder \(path): \(operation): \(Errno(rawValue: code))"
        }
        return """
            refusing the socket folder \(path): \(why). Nothing was changed: remove or fix it \
            yourself, or use another folder
            """
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Checks, and for a server creates, the folders that lead to a socket.
///
/// The runtime directory and every folder below it on the way to the socket, and every folder
/// created here, must be private: a real folder (not a symlink), owned by this user, mode 0700.
/// The folders above must belong to root or this user, and be writable by others only when
/// sticky (as /tmp is), so that nobody else can rename the private ones away. Nothing found
/// wanting is chmod-ed or chown-ed: it may be someone else's, so it is refused.
public enum SocketFolder {
    /// For a server about to bind `socket`: creates the missing folders 0700 and checks them all.
    /// `runtimeDirectory` is the user's runtime directory; when the socket lies under it, it and
    /// every folder down to the socket's must be private even if they already existed.
    public static func prepare(socket: String, runtimeDirectory: String?) throws(SocketFolderError) {
        try walk(socket: socket, runtimeDirectory: runtimeDirectory, create: true)
    }

    /// For a client about to connect to `socket`: when it lies under `runtimeDirectory`, checks
    /// the folders from there down (creating none). A socket elsewhere may be a service's, whose
    /// folder is not the user's; the server's uid (SO_PEERCRED) is checked for it instead.
    public static func verify(socket: String, runtimeDirectory: String) throws(SocketFolderError) {
        guard privateStart(of: socket, runtimeDirectory: runtimeDirectory) != nil else { return }
        try walk(socket: socket, runtimeDirectory: runtimeDirectory, create: false)
    }

    private static func walk(socket: String, runtimeDirectory: String?, create: Bool) throws(SocketFolderError) {
        let parts = components(ofFolderOf: socket)
        let firstPrivate = runtimeDirectory.flatMap { privateStart(of: socket, runtimeDirectory: $0) } ?? parts.count
        var path = socket.hasPrefix("/") ? "" : "."
        for (index, part) in parts.enumerated() {
            path += "/" + part
            var created = false
            if create, case .missing = try inspect(path) {
                guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                    throw SocketFolderError(path: path, problem: .failed(operation: "mkdir", errno: errno))
                }
                created = true
            }
            switch try inspect(path) {
            case .missing:
                // A client: the socket cannot exist either, so connect() will say so.
                return
            case .found(let info):
                if created || index >= firstPrivate {
                    try requirePrivate(info, path)
                } else {
                    try requireGuarded(info, path)
                }
            }
        }
    }

    private enum Found {
        case missing
        case found(stat)
    }

    private static func inspect(_ path: String) throws(SocketFolderError) -> Found {
        var info = stat()
        if lstat(path, &info) == 0 { return .found(info) }
        if errno == ENOENT { return .missing }
        throw SocketFolderError(path: path, problem: .failed(operation: "lstat", errno: errno))
    }

    /// The runtime directory and what is below it, and what photod creates: only this user.
    private static func requirePrivate(_ info: stat, _ path: String) throws(SocketFolderError) {
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw SocketFolderError(path: path, problem: .symbolicLink) }
        guard type == S_IFDIR else { throw SocketFolderError(path: path, problem: .notAFolder) }
        guard info.st_uid == geteuid() else { throw SocketFolderError(path: path, problem: .ownedBy(info.st_uid)) }
        guard info.st_mode & 0o077 == 0 else {
            throw SocketFolderError(path: path, problem: .openToOthers(mode: UInt32(info.st_mode)))
        }
    }

    /// A folder above the private ones: nobody but root and this user may rename what it holds.
    private static func requireGuarded(_ info: stat, _ path: String) throws(SocketFolderError) {
        guard info.st_uid == 0 || info.st_uid == geteuid() else {
            throw SocketFolderError(path: path, problem: .ownedBy(info.st_uid))
        }
        let type = info.st_mode & S_IFMT
        // A link of root's or this user's (/var/run → /run): only they can point it elsewhere.
        if type == S_IFLNK { return }
        guard type == S_IFDIR else { throw SocketFolderError(path: path, problem: .notAFolder) }
        if info.st_mode & 0o022 != 0 && info.st_mode & S_ISVTX == 0 {
            throw SocketFolderError(path: path, problem: .writableByOthers(mode: UInt32(info.st_mode)))
        }
    }

    /// The folder names leading to the socket's folder, without empty or "." parts.
    private static func components(ofFolderOf socket: String) -> [String] {
        Array(socket.split(separator: "/").dropLast().map(String.init).filter { $0 != "." })
    }

    /// The index of the runtime directory's last part among the socket's folders, when the
    /// socket lies under it.
    private static func privateStart(of socket: String, runtimeDirectory: String) -> Int? {
        guard socket.hasPrefix("/"), runtimeDirectory.hasPrefix("/") else { return nil }
        let parts = components(ofFolderOf: socket)
        let runtime = runtimeDirectory.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !runtime.isEmpty, runtime.count <= parts.count, Array(parts.prefix(runtime.count)) == runtime else {
            return nil
        }
        return runtime.count - 1
    }
}
