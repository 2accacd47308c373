#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// The immediate, non-hidden subfolders of `path`, in byte order, without following symlinks.
    ///
    /// Names starting with "." are skipped, as the walker skips them. A symlink to a folder is not
    /// a subfolder, and `path` itself is reached through real folders only (`SafeOpener`). Only
    /// `fstatat` is used on the entries, so FIFOs and devices are never opened.
    public static func subdirectories(of path: PathBytes) -> Result<[PathBytes], FileSystemError> {
        let fd: Int32
        switch SafeOpener().openFolder(path) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        guard let stream = fdopendir(fd) else {
            let error = FileSystemError(path: path, errno: errno, operation: "fdopendir")
            close(fd)
            return .failure(error)
        }
        defer { closedir(stream) }
        let folderFD = dirfd(stream)
        var folders: [PathBytes] = []
        while let entry = readdir(stream) {
            let name = entryName(entry)
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            let type = entry.pointee.d_type
            if type != UInt8(DT_DIR) {
                guard type == UInt8(DT_UNKNOWN) else { continue }
                var st = stat()
                let rc = withCString(name) { fstatat(folderFD, $0, &st, AT_SYMLINK_NOFOLLOW) }
                guard rc == 0, FileInfo(st).kind == .directory else { continue }
            }
            folders.append(path.appending(name))
        }
        folders.sort()
        return .success(folders)
    }

    /// The name of a `readdir` entry, as bytes.
    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let length = raw.firstIndex(of: 0) ?? raw.count
            return Array(raw[..<length])
        }
    }
}
