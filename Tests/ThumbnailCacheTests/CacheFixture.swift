import FileSystem
import Foundation
import PhotoTestSupport
import ThumbnailCache

/// A cache in a fresh temporary folder, and what the tests look at on disk.
struct CacheFixture {
    let directory: TemporaryDirectory
    let cache: ThumbnailCache
    /// The cache root, `<tmp>/thumbnails` (not created until the first write).
    var root: String { directory.file("thumbnails") }

    init() throws {
        directory = try TemporaryDirectory()
        cache = ThumbnailCache(rootPath: directory.file("thumbnails"), appName: "photod", appVersion: "1.2")
    }

    /// A valid grayscale PNG of this size (real zlib image data).
    static func thumbnail(width: Int = 128, height: Int = 96) -> [UInt8] {
        PNGFixture(exifChunk: nil, width: width, height: height).make()
    }

    /// The path of the thumbnail of `source` at `size`, as a String for Foundation.
    func thumbnailPath(_ source: String, _ size: ThumbnailSize = .normal) -> String {
        String(decoding: cache.thumbnailPath(path: PathBytes(source), size: size) ?? [], as: UTF8.self)
    }

    /// The names in a folder, sorted; empty when it does not exist.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// lstat of `path`: (permission bits, owner, is a symlink); nil when it does not exist.
    static func status(_ path: String) -> (mode: mode_t, owner: uid_t, isLink: Bool)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & 0o7777, st.st_uid, st.st_mode & S_IFMT == S_IFLNK)
    }

    /// Makes `path` a folder with `mode`, whatever the umask.
    static func makeFolder(_ path: String, mode: mode_t = 0o700) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard chmod(path, mode) == 0 else { throw POSIXError(.EPERM) }
    }
}

/// A file name made by the cache: 32 lowercase hex digits and ".png".
func isCacheFileName(_ name: String) -> Bool {
    name.count == 36 && name.hasSuffix(".png") && name.dropLast(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }
}
