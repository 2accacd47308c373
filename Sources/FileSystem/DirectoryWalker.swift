#if canImport(Glibc)
import Glibc
#endif

/// Walks a folder tree depth-first without following symlinks, reporting regular files.
///
/// Only the root is opened by path (through real folders only, see `SafeOpener`); every folder
/// below it is opened with `openat(O_NOFOLLOW)` from its parent's descriptor, never by its full
/// path again, so a folder swapped for a symlink between listing and descending is never
/// followed: the walk cannot leave the root. Hidden entries (names starting with ".") are
/// skipped: they are editors' and tools' temporary files and caches, never photos a person
/// filed. A folder reached twice (through a bind mount) is walked once.
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
    /// Called with a listed folder's path just before it is opened (tests swap folders here).
    var willOpenFolder: (([UInt8]) -> Void)?

    /// Prepares a walk of `root`, an absolute path.
    public init(root: [UInt8]) { self.root = root }

    /// Walks the tree, calling `visit` for every regular file and `failed` for folders it cannot read.
    public func walk(visit: (Entry) -> Void, failed: (FileSystemError) -> Void = { _ in }) {
        var walk = Walk()
        switch SafeOpener().openFolder(root) {
        case .success(let fd): walk.list(fd, path: root, visit: visit, failed: failed)
        case .failure(let error): failed(error)
        }
        while let folder = walk.pending.popLast() {
            willOpenFolder?(folder.path)
            let fd = FileSystem.withCString(folder.name) {
                openat(folder.parent.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard fd >= 0 else {
                // ELOOP, ENOTDIR: no longer a folder (a symlink now), skipped like any symlink.
                if errno != ELOOP && errno != ENOTDIR {
                    failed(FileSystemError(path: folder.path, errno: errno, operation: "open folder"))
                }
                continue
            }
            walk.list(fd, path: folder.path, visit: visit, failed: failed)
        }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let length = raw.firstIndex(of: 0) ?? raw.count
            return Array(raw[..<length])
        }
    }

    /// A listed folder still open: the folders found in it are opened from its descriptor.
    /// Shared by them and closed with the last, so about one per level of the tree is open.
    private final class OpenFolder {
        let stream: OpaquePointer
        var descriptor: Int32 { dirfd(stream) }

        init(_ stream: OpaquePointer) { self.stream = stream }

        deinit { closedir(stream) }
    }

    /// A folder listed and not yet walked: its name in its parent, and the path it is reported under.
    private struct PendingFolder {
        var path: [UInt8]
        var parent: OpenFolder
        var name: [UInt8]
    }

    /// The state of one walk: folders to walk, and the folders already walked.
    private struct Walk {
        var pending: [PendingFolder] = []
        var seen: Set<FileIdentity> = []

        /// Lists the open folder `fd` (taking it over): files to `visit`, folders to `pending`.
        mutating func list(
            _ fd: Int32, path: [UInt8], visit: (Entry) -> Void, failed: (FileSystemError) -> Void
        ) {
            var st = stat()
            guard fstat(fd, &st) == 0, seen.insert(FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))).inserted
            else {
                close(fd)
                return
            }
            guard let stream = fdopendir(fd) else {
                failed(FileSystemError(path: path, errno: errno, operation: "fdopendir"))
                close(fd)
                return
            }
            let folder = OpenFolder(stream)
            let folderFD = folder.descriptor
            while let entry = readdir(stream) {
                let name = DirectoryWalker.name(of: entry)
                guard let first = name.first, first != UInt8(ascii: ".") else { continue }
                var child = path
                if child.last != UInt8(ascii: "/") { child.append(UInt8(ascii: "/")) }
                child += name
                let type = entry.pointee.d_type
                if type == UInt8(DT_DIR) {
                    pending.append(PendingFolder(path: child, parent: folder, name: name))
                    continue
                }
                guard type == UInt8(DT_REG) || type == UInt8(DT_UNKNOWN) else { continue }
                var childStat = stat()
                let rc = FileSystem.withCString(name) { fstatat(folderFD, $0, &childStat, AT_SYMLINK_NOFOLLOW) }
                guard rc == 0 else { continue }  // vanished between readdir and stat
                let info = FileInfo(childStat)
                switch info.kind {
                case .regular: visit(Entry(path: child, info: info))
                case .directory: pending.append(PendingFolder(path: child, parent: folder, name: name))
                case .symlink, .other: break
                }
            }
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
