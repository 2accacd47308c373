#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Synchronization

/// The file-system side of the cache: folders opened by descriptor and checked before use,
/// capped reads, and writes that replace a file in one rename.
///
/// Everything below the root is reached with `openat` from a folder descriptor that was
/// checked (a real directory, this user's, not writable by others), so a folder swapped for a
/// symlink after the check cannot redirect a write.
enum CacheFiles {
    /// Folders the cache makes are private, as the standard asks (0700).
    static let folderMode: mode_t = 0o700
    /// Thumbnails may show private pictures: readable by their owner only (0600).
    static let fileMode: mode_t = 0o600

    /// Opens the checked folder `name` inside `parent`, making it (0700) when `create` is set;
    /// nil when it does not exist and `create` is not set.
    static func openFolder(_ name: [UInt8], in parent: Int32, path: [UInt8], create: Bool) throws(ThumbnailCacheError) -> Int32? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = withCString(name) { openat(parent, $0, flags) }
        if fd < 0 && errno == ENOENT {
            guard create else { return nil }
            // EEXIST: another writer made it first, which is as good; its checks follow below.
            guard withCString(name, { mkdirat(parent, $0, folderMode) }) == 0 || errno == EEXIST else {
                throw .system("mkdir", path)
            }
            fd = withCString(name) { openat(parent, $0, flags) }
        }
        guard fd >= 0 else {
            let code = errno
            // O_NOFOLLOW|O_DIRECTORY on a symlink gives ELOOP or ENOTDIR: lstat says which it was.
            if code == ELOOP || code == ENOTDIR {
                var st = stat()
                if withCString(name, { fstatat(parent, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 {
                    let isLink = st.st_mode & S_IFMT == S_IFLNK
                    throw ThumbnailCacheError(path: path, reason: isLink ? .symlink : .notADirectory)
                }
            }
            throw .system("open", path, errno: code)
        }
        do throws(ThumbnailCacheError) {
            try checkFolder(fd, path: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Opens the cache root; with `create`, makes it and any missing parent folders (0700, as
    /// the XDG base directories ask for ~/.cache). Only the root itself is checked: the
    /// folders above it belong to the system or the user's home layout and may be symlinks.
    static func openRoot(_ root: [UInt8], create: Bool) throws(ThumbnailCacheError) -> Int32? {
        guard root.contains(UInt8(ascii: "/")) else {
            return try openFolder(root, in: AT_FDCWD, path: root, create: create)
        }
        let parentPath = (PathBytes(root).parent ?? .root).bytes
        let name = PathBytes(root).lastComponent
        if create { try makeParents(parentPath) }
        let parent = withCString(parentPath) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard parent >= 0 else {
            if errno == ENOENT && !create { return nil }
            throw .system("open", parentPath)
        }
        defer { close(parent) }
        return try openFolder(name, in: parent, path: root, create: create)
    }

    /// `mkdir -p` with mode 0700 for folders that do not exist yet; existing ones are left as they are.
    private static func makeParents(_ path: [UInt8]) throws(ThumbnailCacheError) {
        var end = 1
        while end <= path.count {
            if end == path.count || path[end] == UInt8(ascii: "/") {
                let prefix = Array(path[..<end])
                if withCString(prefix, { mkdir($0, folderMode) }) != 0 && errno != EEXIST {
                    // Some file systems (read-only, automounted) report other errors for a
                    // folder that is there: only a missing one is a failure.
                    let code = errno
                    var st = stat()
                    guard withCString(prefix, { stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                        throw .system("mkdir", prefix, errno: code)
                    }
                }
            }
            end += 1
        }
    }

    /// A directory owned by this user and not writable by group or others.
    private static func checkFolder(_ fd: Int32, path: [UInt8]) throws(ThumbnailCacheError) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system("fstat", path) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw ThumbnailCacheError(path: path, reason: .notADirectory) }
        guard st.st_uid == geteuid() else { throw ThumbnailCacheError(path: path, reason: .notOwned(owner: st.st_uid)) }
        guard st.st_mode & 0o022 == 0 else {
            throw ThumbnailCacheError(path: path, reason: .writableByOthers(mode: UInt32(st.st_mode)))
        }
    }

    /// The whole of a regular file owned by this user, closed to group and others (as the
    /// cache writes them, 0600), and at most `limit` bytes; nil for anything else (missing, a
    /// symlink, a FIFO, someone else's, readable or writable by others, too big, unreadable).
    static func readSmallFile(_ path: [UInt8], limit: Int) -> [UInt8]? {
        // O_NONBLOCK: a FIFO put in a thumbnail's place must not hang the reader in open().
        let fd = withCString(path) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid(),
            st.st_mode & 0o077 == 0, st.st_size >= 0, st.st_size <= limit
        else { return nil }
        // Sized by fstat, already bounded by the cap; a file that grows meanwhile is refused below.
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        // The extra byte is only there to notice growth: a file still being written is not read.
        guard filled == Int(st.st_size) else { return nil }
        bytes.removeLast()
        return bytes
    }

    /// Numbers temporary files, with the process id, so concurrent writers in this process and
    /// others never pick the same name.
    private static let counter = Atomic<UInt64>(0)

    /// Writes `bytes` to `name` in `folder` so that a reader sees the old file or the whole new
    /// one: a private temporary file beside it, then `renameat` over the name. No fsync: this is
    /// a cache, and a thumbnail lost or cut short by a crash fails the PNG check and is made again.
    static func replace(_ name: [UInt8], in folder: Int32, folderPath: [UInt8], with bytes: [UInt8]) throws(ThumbnailCacheError) {
        let number = counter.add(1, ordering: .relaxed).newValue
        let temporary = Array(".photod-\(getpid())-\(number)-".utf8) + name + Array(".tmp".utf8)
        let temporaryPath = folderPath + [UInt8(ascii: "/")] + temporary
        let fd = withCString(temporary) {
            openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        }
        guard fd >= 0 else { throw .system("create", temporaryPath) }
        var failure = writeAll(bytes, to: fd, path: temporaryPath)
        // close() can report a failed delayed write (NFS, quota), so it is checked like write().
        if close(fd) != 0 && failure == nil { failure = .system("close", temporaryPath) }
        if failure == nil {
            let renamed = withCString(temporary) { from in withCString(name) { to in renameat(folder, from, folder, to) } }
            if renamed != 0 { failure = .system("rename", folderPath + [UInt8(ascii: "/")] + name) }
        }
        if let failure {
            _ = withCString(temporary) { unlinkat(folder, $0, 0) }
            throw failure
        }
    }

    /// `write` until every byte is out, retrying interrupted and partial writes; the error, if any.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: [UInt8]) -> ThumbnailCacheError? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            // A zero-byte write of a non-empty buffer would loop forever: treat it as an I/O error.
            guard count > 0 else { return .system("write", path, errno: count < 0 ? errno : EIO) }
            written += count
        }
        return nil
    }

    /// Removes `name` from `folder`; a file already gone is not an error.
    static func remove(_ name: [UInt8], in folder: Int32, folderPath: [UInt8]) throws(ThumbnailCacheError) {
        guard withCString(name, { unlinkat(folder, $0, 0) }) == 0 || errno == ENOENT else {
            throw .system("unlink", folderPath + [UInt8(ascii: "/")] + name)
        }
    }

    /// Calls `body` with `bytes` as a NUL-terminated C string.
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        body(PathBytes(bytes).cString)
    }
}

extension CacheFiles {
    /// The regular files of this user's directly in `folder`, with their lstat; symlinks and
    /// anything else are left out.
    static func regularFiles(in folder: Int32) -> [([UInt8], stat)] {
        let copy = dup(folder)
        guard copy >= 0 else { return [] }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var result: [([UInt8], stat)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard !name.isEmpty, name.first != UInt8(ascii: ".") else { continue }
            var st = stat()
            guard withCString(name, { fstatat(folder, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0,
                st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid()
            else { continue }
            result.append((name, st))
        }
        return result
    }

    /// Up to `length` first bytes of the regular file `name` in `folder` (no symlink, no FIFO
    /// followed); empty when it cannot be read.
    static func readPrefix(_ name: [UInt8], in folder: Int32, length: Int) -> [UInt8] {
        let fd = withCString(name) { openat(folder, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(bytes.prefix(count)) : []
    }
}
