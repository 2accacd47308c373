#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// `f_fsid` of the file system holding `path` (`statvfs`, which packs statfs's two words
    /// into one), nil when it cannot be read. Some
    /// file systems derive it from their own UUID (ext2/3/4, btrfs) or serial (ntfs3), so it
    /// tells two drives apart; others derive it from the device number, which does not.
    public static func fileSystemID(_ path: PathBytes) -> UInt64? {
        var status = statvfs()
        guard statvfs(path.cString, &status) == 0 else { return nil }
        return UInt64(status.f_fsid)
    }

    /// The entries of `folder` (a folder of symlinks such as /dev/disk/by-uuid) with the
    /// canonical path each resolves to; entries that do not resolve are left out.
    public static func linkTargets(in folder: PathBytes) -> [(name: [UInt8], target: PathBytes)] {
        guard let stream = opendir(folder.cString) else { return [] }
        defer { closedir(stream) }
        var found: [(name: [UInt8], target: PathBytes)] = []
        while let entry = readdir(stream) {
            let name = entryName(entry)
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            if let target = canonicalPath(folder.appending(name)) { found.append((name, target)) }
        }
        return found
    }
}
