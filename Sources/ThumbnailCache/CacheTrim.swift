#if canImport(Glibc)
import Glibc
#endif

/// What one trim of the cache did.
public struct CacheTrimResult: Sendable, Equatable {
    /// Bytes of this program's thumbnails before the trim (0 when the whole cache was under the bound).
    public var ownBytesBefore: Int64
    /// Bytes of this program's thumbnails left.
    public var ownBytesAfter: Int64
    /// Thumbnails removed.
    public var removed: Int
}

extension ThumbnailCache {
    /// How much of a cache file is read to tell whose it is: the text chunks come first, and a
    /// URI is at most about 12 KiB.
    static let trimPrefixLength = 32 * 1024

    /// Removes this program's oldest thumbnails (by the time they were written) until those
    /// left take at most `maxBytes`. Other programs' files are neither counted nor touched: the
    /// bound is on what photod adds to the shared cache. A cache whose files all together stay
    /// under the bound costs a `stat` per file; only a cache over it has its files' first bytes read.
    public func trim(toBytes maxBytes: Int64) throws(ThumbnailCacheError) -> CacheTrimResult {
        var nothing = CacheTrimResult(ownBytesBefore: 0, ownBytesAfter: 0, removed: 0)
        guard let rootFD = try CacheFiles.openRoot(root, create: false) else { return nothing }
        defer { close(rootFD) }
        var folders: [(fd: Int32, path: [UInt8])] = []
        defer { for folder in folders { close(folder.fd) } }
        for size in ThumbnailSize.allCases {
            let name = Array(size.folderName.utf8)
            if let fd = try CacheFiles.openFolder(name, in: rootFD, path: root + [UInt8(ascii: "/")] + name, create: false) {
                folders.append((fd, root + [UInt8(ascii: "/")] + name))
            }
        }
        var files: [(folder: Int, name: [UInt8], size: Int64, mtime: Int64)] = []
        var total: Int64 = 0
        for (index, folder) in folders.enumerated() {
            for (name, st) in CacheFiles.regularFiles(in: folder.fd) where Self.isCacheFileName(name) {
                files.append((index, name, Int64(st.st_size), Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)))
                total += Int64(st.st_size)
            }
        }
        guard total > maxBytes else { return nothing }
        let software = Array("\(appName) ".utf8)
        files = files.filter { file in
            let prefix = CacheFiles.readPrefix(file.name, in: folders[file.folder].fd, length: Self.trimPrefixLength)
            return PNGChunks.leadingText(prefix).contains { $0.keyword == "Software" && Array($0.text.utf8).starts(with: software) }
        }
        var own = files.reduce(Int64(0)) { $0 + $1.size }
        nothing.ownBytesBefore = own
        var removed = 0
        for file in files.sorted(by: { $0.mtime < $1.mtime }) where own > maxBytes {
            try CacheFiles.remove(file.name, in: folders[file.folder].fd, folderPath: folders[file.folder].path)
            own -= file.size
            removed += 1
        }
        return CacheTrimResult(ownBytesBefore: nothing.ownBytesBefore, ownBytesAfter: own, removed: removed)
    }

    /// `<32 lowercase hex digits>.png`: what the cache names files (temporary files start with a dot).
    static func isCacheFileName(_ name: [UInt8]) -> Bool {
        name.count == 36 && name.suffix(4).elementsEqual(Array(".png".utf8))
            && name.prefix(32).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
