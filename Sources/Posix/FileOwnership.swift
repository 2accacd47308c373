#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's permission bits and owner as `fstat` gives them: what a file rewritten under a
/// temporary name must be given to stay the same file to its user.
public struct FileOwnership: Sendable, Equatable {
    /// The permission bits, with set-user-id, set-group-id and sticky (`st_mode & 07777`).
    public var mode: UInt32
    /// The owning user (`st_uid`).
    public var user: UInt32
    /// The owning group (`st_gid`).
    public var group: UInt32

    /// Creates a value.
    public init(mode: UInt32, user: UInt32, group: UInt32) {
        self.mode = mode
        self.user = user
        self.group = group
    }

    /// The ownership of the open file `descriptor`; nil when `fstat` fails.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(mode: UInt32(status.st_mode) & 0o7777, user: status.st_uid, group: status.st_gid)
    }

    /// Who this process is, for `allowsWriting`: its effective user and every group it is in.
    public struct Caller: Sendable, Equatable {
        /// The effective user id.
        public var user: UInt32
        /// The effective group and the supplementary ones.
        public var groups: Set<UInt32>

        /// Creates a caller.
        public init(user: UInt32, groups: Set<UInt32>) {
            self.user = user
            self.groups = groups
        }

        /// This process.
        public static var current: Caller {
            let count = getgroups(0, nil)
            var list = [gid_t](repeating: 0, count: Int(max(count, 0)))
            let filled = count > 0 ? getgroups(count, &list) : 0
            return Caller(user: geteuid(), groups: Set(list.prefix(Int(max(filled, 0)))).union([getegid()]))
        }
    }

    /// Whether the permission bits give `caller` write access: the owner's bits for the owner, the
    /// group's for a member, the others' otherwise. Root, whom the kernel lets write anyway, is
    /// held to the file's word: no write bit at all means someone made it read-only on purpose.
    public func allowsWriting(by caller: Caller) -> Bool {
        if caller.user == 0 { return mode & 0o222 != 0 }
        if caller.user == user { return mode & 0o200 != 0 }
        if caller.groups.contains(group) { return mode & 0o020 != 0 }
        return mode & 0o002 != 0
    }

    /// Gives the open file `descriptor` this owner, group and mode, then checks that it has them
    /// all; the call that failed when it cannot (`fchown` needs privilege for another owner, or a
    /// group the process is not in). The owner first: `fchown` clears set-user-id and set-group-id.
    public func apply(to descriptor: Int32) throws(SystemCallError) {
        guard let now = FileOwnership(descriptor: descriptor) else { throw SystemCallError("fstat", errno: errno) }
        if now.user != user || now.group != group {
            guard fchown(descriptor, now.user == user ? UInt32.max : user, now.group == group ? UInt32.max : group) == 0 else {
                throw SystemCallError(now.user != user ? "fchown (owner)" : "fchown (group)", errno: errno)
            }
        }
        guard fchmod(descriptor, mode_t(mode)) == 0 else { throw SystemCallError("fchmod", errno: errno) }
        // The kernel drops set-group-id for a group the caller is not in, without an error.
        guard FileOwnership(descriptor: descriptor) == self else { throw SystemCallError("fchmod (mode not kept)", errno: EPERM) }
    }
}
