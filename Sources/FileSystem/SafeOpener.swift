#if canImport(Glibc)
import Glibc
#endif

/// Opens and stats files by absolute path one component at a time, from "/", with
/// `openat(O_NOFOLLOW)`, so a folder swapped for a symlink anywhere in the path is refused
/// instead of followed out of the library.
///
/// Every path photod keeps is canonical (roots are resolved with `realpath`, and everything
/// below them comes from walking real folders), so no component of it is ever legitimately a
/// symlink. `open(path, O_NOFOLLOW)` only guards the last component; the kernel would follow a
/// symlink put in place of any folder above it. The parent folder of the last path is kept open,
/// so a run of files in one folder costs one `openat` each, as a plain `open` would.
public final class SafeOpener {
    /// `O_PATH` (Linux, not exported by Glibc's Swift module): a handle for `*at` calls that
    /// needs search permission only, as path resolution itself does.
    private static let pathOnly: Int32 = 0o10_000_000
    private static let folderFlags = pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC

    private var cachedFolder = PathBytes([])
    private var cachedDescriptor: Int32 = -1
    /// The last folder found missing (ENOENT): paths under it fail at once, so a batch that
    /// checks the old paths of a folder renamed away (100,000 of them after a root's rename)
    /// makes no system call per path. An opener lives for one batch, as its open folder does.
    private var missingFolder: PathBytes?

    /// An opener with nothing open yet.
    public init() {}

    deinit {
        if cachedDescriptor >= 0 { close(cachedDescriptor) }
    }

    /// Opens a regular file for reading without following a symlink in any component and
    /// without blocking on a FIFO or device swapped in after the walk looked; anything but a
    /// regular file is refused.
    public func openRegularFile(_ path: PathBytes) -> Result<OpenFile, FileSystemError> {
        let fd: Int32
        switch openAt(path, flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let error = FileSystemError(path: path, errno: errno, operation: "fstat")
            close(fd)
            return .failure(error)
        }
        let info = FileInfo(st)
        guard info.kind == .regular else {
            close(fd)
            return .failure(FileSystemError(path: path, errno: EINVAL, operation: "open (not a regular file)"))
        }
        return .success(OpenFile(fileDescriptor: fd, info: info))
    }

    /// A folder opened for reading its entries, through real folders only: the caller owns the descriptor.
    public func openFolder(_ path: PathBytes) -> Result<Int32, FileSystemError> {
        openAt(path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// `lstat` of `path` reached through real folders only (the last component itself may be anything).
    public func linkStatus(_ path: PathBytes) -> Result<FileInfo, FileSystemError> {
        lastComponent(of: path, operation: "lstat").flatMap { parent, name in
            var st = stat()
            let rc = FileSystem.withCString(name) { fstatat(parent, $0, &st, AT_SYMLINK_NOFOLLOW) }
            guard rc == 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "lstat")) }
            return .success(FileInfo(st))
        }
    }

    /// `openat` of the last component from its parent folder, reached component by component.
    private func openAt(_ path: PathBytes, flags: Int32) -> Result<Int32, FileSystemError> {
        if let fd = openInCachedFolder(path, flags: flags) {
            guard fd >= 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "open")) }
            return .success(fd)
        }
        return lastComponent(of: path, operation: "open").flatMap { parent, name in
            let fd = FileSystem.withCString(name) { openat(parent, $0, flags) }
            guard fd >= 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "open")) }
            return .success(fd)
        }
    }

    /// `openat` of a file directly in the folder already open, without splitting the path or
    /// copying its name into an array (a scan opens a folder's files one after another); nil
    /// when `path` is not a plain name in that folder (then the general way checks it all).
    private func openInCachedFolder(_ path: PathBytes, flags: Int32) -> Int32? {
        let path = path.bytes
        let folder = cachedFolder.bytes.count
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        guard cachedDescriptor >= 0, folder > 0, path.count > folder + 1, path[folder] == slash,
              PathBytes.prefixOrder(path, cachedFolder.bytes, count: folder) == 0 else { return nil }
        let name = path[(folder + 1)...]
        // "." and ".." are not names of files in the folder, and a further "/" is a deeper path.
        guard !name.contains(slash), !(name.count <= 2 && name.allSatisfy { $0 == dot }) else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { buffer -> Int32 in
            for (offset, byte) in name.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[name.count] = 0
            guard let base = buffer.baseAddress else { return -1 }
            return openat(cachedDescriptor, base, flags)
        }
    }

    /// A handle on the folder holding the last component of `path`, and that component ("." for "/").
    private func lastComponent(of path: PathBytes, operation: String) -> Result<(Int32, [UInt8]), FileSystemError> {
        guard let (folder, name) = Self.split(path) else {
            return .failure(FileSystemError(path: path, errno: EINVAL, operation: "\(operation) (not an absolute path without \"..\")"))
        }
        return descriptor(of: folder, for: path).map { ($0, name.isEmpty ? [UInt8(ascii: ".")] : name) }
    }

    /// A handle on `folder` (the cached one when it is the same folder as last time).
    private func descriptor(of folder: PathBytes, for path: PathBytes) -> Result<Int32, FileSystemError> {
        if cachedDescriptor >= 0, folder == cachedFolder { return .success(cachedDescriptor) }
        if cachedDescriptor >= 0 {
            close(cachedDescriptor)
            cachedDescriptor = -1
        }
        if let missingFolder, folder == missingFolder || folder.isInside(missingFolder) {
            return .failure(FileSystemError(path: path, errno: ENOENT, operation: "open folder"))
        }
        var current = FileSystem.withCString([UInt8(ascii: "/")]) { open($0, Self.folderFlags) }
        guard current >= 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "open /")) }
        for component in folder.bytes.split(separator: UInt8(ascii: "/")) where component != [UInt8(ascii: ".")] {
            let next = FileSystem.withCString(Array(component)) { openat(current, $0, Self.folderFlags) }
            let error = errno
            close(current)
            // A symlink fails here (ELOOP or ENOTDIR): it is never followed.
            guard next >= 0 else {
                // The folder missing is `folder` up to this component (a slice keeps its indexes).
                if error == ENOENT { missingFolder = PathBytes(Array(folder.bytes[..<component.endIndex])) }
                return .failure(FileSystemError(path: path, errno: error, operation: "open folder"))
            }
            current = next
        }
        cachedFolder = folder
        cachedDescriptor = current
        return .success(current)
    }

    /// The parent folder and the last component of an absolute path ("/a/b" → "/a", "b"; "/" → "/", "").
    private static func split(_ path: PathBytes) -> (PathBytes, [UInt8])? {
        guard path.bytes.first == UInt8(ascii: "/"), !hasParentComponent(path.bytes) else { return nil }
        return (path.parent ?? .root, path.lastComponent)
    }

    /// Whether a component is "..", which would climb out of a folder just entered; a canonical
    /// path never has one. (A scan, not a split: this runs for every file a scan reads.)
    private static func hasParentComponent(_ path: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var start = 0
        for index in 0...path.count where index == path.count || path[index] == slash {
            if index - start == 2, path[start] == dot, path[start + 1] == dot { return true }
            start = index + 1
        }
        return false
    }
}
