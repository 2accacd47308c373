#if canImport(Glibc)
import Glibc
#endif

/// Walks a folder tree depth-first without following symlinks, reporting regular files.
///
/// Hidden entries (names starting with ".") are skipped: they are editors' and tools'
/// temporary files and caches, never photos a person filed. A folder reached twice (through
/// a bind mount) is walked once.
public struct DirectoryWalker {
    /// A regular file found by the walk.
    public struct Entry: Sendable {
        public var path: [UInt8]
        public var info: FileInfo

        /// Creates an entry.
        public init(path: [UInt8], info: FileInfo) {
            self.path = path
            self.info = info
        }
    }

    private let root: [UInt8]

    /// Prepares a walk of `root`.
    public init(root: [UInt8]) { self.root = root }

    /// Walks the tree, calling `visit` for every regular file and `failed` for folders it cannot read.
    public func walk(visit: (Entry) -> Void, failed: (FileSystemError) -> Void = { _ in }) {
        var pending: [[UInt8]] = [root]
        var seen: Set<FileIdentity> = []
        while let folder = pending.popLast() {
            let fd = FileSystem.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard fd >= 0 else {
                failed(FileSystemError(path: folder, errno: errno, operation: "open folder"))
                continue
            }
            var st = stat()
            guard fstat(fd, &st) == 0, seen.insert(FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted
            else {
                close(fd)
                continue
            }
            guard let stream = fdopendir(fd) else {
                failed(FileSystemError(path: folder, errno: errno, operation: "fdopendir"))
                close(fd)
                continue
            }
            defer { closedir(stream) }
            let folderFD = dirfd(stream)
            while let entry = readdir(stream) {
                let name = Self.name(of: entry)
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                var child = folder
                if child.last != UInt8(ascii: "/") { child.append(UInt8(ascii: "/")) }
                child += name
                let type = entry.pointee.d_type
                if type == UInt8(DT_DIR) {
                    pending.append(child)
                    continue
                }
                guard type == UInt8(DT_REG) || type == UInt8(DT_UNKNOWN) else { continue }
                var childStat = stat()
                let rc = FileSystem.withCString(name) { fstatat(folderFD, $0, &childStat, AT_SYMLINK_NOFOLLOW) }
                guard rc == 0 else { continue }  // vanished between readdir and stat
                let info = FileInfo(childStat)
                switch info.kind {
                case .regular: visit(Entry(path: child, info: info))
                case .directory: pending.append(child)
                case .symlink, .other: break
                }
            }
        }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let length = raw.firstIndex(of: 0) ?? raw.count
            return Array(raw[..<length])
        }
    }
}

/// A file's identity on the machine: device and inode.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    /// Creates an identity.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
