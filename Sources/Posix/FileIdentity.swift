#if canImport(Glibc)
import Glibc
#endif

/// A file's identity on the machine: device and inode.
public struct FileIdentity: Sendable, Hashable {
    /// The file system's device number (`st_dev`).
    public var device: UInt64
    /// The file's inode number on that device (`st_ino`).
    public var inode: UInt64

    /// Creates an identity.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the open file `descriptor` (`fstat`); nil when the call fails.
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of what `path` names, a symlink itself rather than its target (`lstat`); nil
    /// when nothing is there.
    public init?(linkAt path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
