#if canImport(Glibc)
import Glibc
#endif
import Checksums
import FileSystem

/// A thumbnail found in the cache: the PNG file as stored and its pixel size.
public struct CachedThumbnail: Sendable, Equatable {
    /// The whole PNG file, text chunks included.
    public var png: [UInt8]
    /// Pixel columns.
    public var width: Int
    /// Pixel rows.
    public var height: Int
}

/// The per-user thumbnail cache of the freedesktop.org Thumbnail Managing Standard, shared
/// with every other desktop thumbnailer: `<root>/<size>/<md5 of file URI>.png`, each PNG
/// carrying the URI and modification time of its source file, plus failure markers under
/// `<root>/fail/<app>-<version>/`.
public struct ThumbnailCache: Sendable {
    /// Cache files over this size are not read: no thumbnail of 1024×1024 comes near it.
    public static let maxFileSize = 16 * 1024 * 1024

    /// The cache folder, usually `~/.cache/thumbnails`.
    public let root: [UInt8]
    /// Names this program in failure markers and the `Software` text.
    public let appName: String
    /// Names this version in failure markers: a newer version retries what an older one failed on.
    public let appVersion: String

    /// A cache at `root` (path bytes); trailing slashes are dropped so messages name clean paths.
    public init(root: [UInt8], appName: String = "photod", appVersion: String) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        self.root = trimmed
        self.appName = appName
        self.appVersion = appVersion
    }

    /// A cache at `rootPath`.
    public init(rootPath: String, appName: String = "photod", appVersion: String) {
        self.init(root: Array(rootPath.utf8), appName: appName, appVersion: appVersion)
    }

    /// `$XDG_CACHE_HOME/thumbnails`, or `$HOME/.cache/thumbnails` when XDG_CACHE_HOME is unset
    /// or relative (the XDG base directory specification says to ignore a relative one); nil
    /// when neither gives an absolute path.
    public static func defaultRoot(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return cache + "/thumbnails"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.cache/thumbnails"
        }
        return nil
    }

    /// Where the thumbnail of `path` at `size` lives; nil when the path is not absolute.
    public func thumbnailPath(path: PathBytes, size: ThumbnailSize) -> [UInt8]? {
        guard let name = Self.fileName(path) else { return nil }
        return root + Array("/\(size.folderName)/".utf8) + name
    }

    /// Where this program's failure marker for `path` lives; nil when the path is not
    /// absolute or the app name and version make no folder name.
    public func failureMarkerPath(path: PathBytes) -> [UInt8]? {
        guard let name = Self.fileName(path), let folder = failureFolderName else { return nil }
        return root + Array("/\(Self.failFolder)/".utf8) + folder + [UInt8(ascii: "/")] + name
    }

    /// The cached thumbnail of `path` at `size`, when there is a valid one made from the
    /// file as it is now; nil otherwise. The cache is shared with every program of the user and
    /// so untrusted: a file is taken only when it is a regular file of this user's that no one
    /// else may read or write (0600), of bounded size, a well-formed PNG (every chunk's CRC)
    /// whose pixels fit `size`, and whose `Thumb::URI` and `Thumb::MTime` name the original and
    /// its modification time, and its `Thumb::Size`, when present, `fileSize` (when given).
    public func lookup(path: PathBytes, mtime: Int64, size: ThumbnailSize, fileSize: Int64? = nil) -> CachedThumbnail? {
        guard let uri = FileURI.make(pathBytes: path.bytes), let file = thumbnailPath(path: path, size: size),
            let png = CacheFiles.readSmallFile(file, limit: Self.maxFileSize),
            let info = PNGChunks.read(png), Self.describes(info, uri: uri, mtime: mtime, fileSize: fileSize),
            (1...size.pixels).contains(info.width), (1...size.pixels).contains(info.height)
        else { return nil }
        return CachedThumbnail(png: png, width: info.width, height: info.height)
    }

    /// Stores `png` as the thumbnail of `path` at `size`, with the standard's text added
    /// (`Thumb::URI`, `Thumb::MTime`, `Thumb::Size`, `Software`). The file appears in one
    /// rename, so a reader sees the old thumbnail or the whole new one.
    public func store(png: [UInt8], path: PathBytes, mtime: Int64, fileSize: Int64, size: ThumbnailSize) throws(ThumbnailCacheError) {
        guard let uri = FileURI.make(pathBytes: path.bytes), let name = Self.fileName(path) else {
            throw ThumbnailCacheError(path: path.bytes, reason: .notAbsolute)
        }
        let info: PNGInfo
        do { info = try PNGChunks.parse(png) } catch {
            throw ThumbnailCacheError(path: path.bytes, reason: .invalidPNG(error))
        }
        guard info.width <= size.pixels, info.height <= size.pixels else {
            throw ThumbnailCacheError(path: path.bytes, reason: .tooLarge(width: info.width, height: info.height, box: size.pixels))
        }
        let bytes = try tagged(png, uri: uri, mtime: mtime, fileSize: fileSize, path: path)
        try write(bytes, name: name, folders: [Array(size.folderName.utf8)])
    }

    /// Whether this program version already failed to thumbnail `path` as it is now; a
    /// marker for another modification time does not count, so a changed file is tried again.
    public func isMarkedFailed(path: PathBytes, mtime: Int64) -> Bool {
        guard let uri = FileURI.make(pathBytes: path.bytes), let marker = failureMarkerPath(path: path),
            let png = CacheFiles.readSmallFile(marker, limit: Self.maxFileSize), let info = PNGChunks.read(png)
        else { return false }
        return Self.describes(info, uri: uri, mtime: mtime)
    }

    /// Records that this program version cannot thumbnail `path` at this modification
    /// time, so it is not tried again until the file changes: a 1×1 PNG with the same text
    /// a thumbnail carries, as the standard asks.
    public func markFailed(path: PathBytes, mtime: Int64, fileSize: Int64) throws(ThumbnailCacheError) {
        guard let uri = FileURI.make(pathBytes: path.bytes), let name = Self.fileName(path) else {
            throw ThumbnailCacheError(path: path.bytes, reason: .notAbsolute)
        }
        guard let folder = failureFolderName else {
            throw ThumbnailCacheError(path: Array("\(appName)-\(appVersion)".utf8), reason: .invalidName)
        }
        let bytes = try tagged(FailureMarker.png, uri: uri, mtime: mtime, fileSize: fileSize, path: path)
        try write(bytes, name: name, folders: [Array(Self.failFolder.utf8), folder])
    }

    /// Removes every cached thumbnail of `path` and this program's failure marker for it;
    /// files already gone are fine. Folders are checked as for `store`, so a symlinked folder
    /// is refused rather than followed.
    public func remove(path: PathBytes) throws(ThumbnailCacheError) {
        guard Self.fileName(path) != nil else {
            throw ThumbnailCacheError(path: path.bytes, reason: .notAbsolute)
        }
        try remove(paths: [path])
    }

    /// Removes what `remove(path:)` does for each of `paths`, opening the cache's folders
    /// once for all of them (a renamed folder of 100,000 photos opened them 100,000 times), and
    /// naming no file when there is no cache. A path that cannot be removed does not stop the
    /// others: the first such failure is thrown at the end. A refused folder stops them all.
    public func remove(paths: [PathBytes]) throws(ThumbnailCacheError) {
        guard !paths.isEmpty, let rootFD = try CacheFiles.openRoot(root, create: false) else { return }
        defer { close(rootFD) }
        var chains = ThumbnailSize.allCases.map { [Array($0.folderName.utf8)] }
        if let failure = failureFolderName { chains.append([Array(Self.failFolder.utf8), failure]) }
        var folders: [(fd: Int32, path: [UInt8])] = []
        defer { for folder in folders { close(folder.fd) } }
        for chain in chains {
            if let folder = try open(chain, from: rootFD, create: false) { folders.append(folder) }
        }
        guard !folders.isEmpty else { return }
        var firstFailure: ThumbnailCacheError?
        for path in paths {
            guard let name = Self.fileName(path) else {
                firstFailure = firstFailure ?? ThumbnailCacheError(path: path.bytes, reason: .notAbsolute)
                continue
            }
            for folder in folders {
                do {
                    try CacheFiles.remove(name, in: folder.fd, folderPath: folder.path)
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
        }
        if let firstFailure { throw firstFailure }
    }

    // MARK: - Helpers

    private static let failFolder = "fail"
    private static let uriKey = "Thumb::URI"
    private static let mtimeKey = "Thumb::MTime"
    private static let sizeKey = "Thumb::Size"

    /// `<md5 of the file URI>.png`; nil when the path has no URI.
    private static func fileName(_ path: PathBytes) -> [UInt8]? {
        guard let uri = FileURI.make(pathBytes: path.bytes) else { return nil }
        return Array((MD5.hex(Array(uri.utf8)) + ".png").utf8)
    }

    /// `<app>-<version>` when it is one plain folder name.
    private var failureFolderName: [UInt8]? {
        let name = Array("\(appName)-\(appVersion)".utf8)
        // Never "." or "..": the hyphen is always there.
        guard !name.contains(UInt8(ascii: "/")), !name.contains(0) else { return nil }
        return name
    }

    /// Whether `info` is about `uri` at `mtime` (and of `fileSize` bytes, when both say). Every
    /// copy of a key must agree, so a file carrying two URIs is never taken for either.
    private static func describes(_ info: PNGInfo, uri: String, mtime: Int64, fileSize: Int64? = nil) -> Bool {
        let uris = info.text.filter { $0.keyword == uriKey }
        let mtimes = info.text.filter { $0.keyword == mtimeKey }
        let sizes = info.text.filter { $0.keyword == sizeKey }
        return !uris.isEmpty && uris.allSatisfy { $0.text == uri }
            && !mtimes.isEmpty && mtimes.allSatisfy { Int64($0.text) == mtime }
            && (fileSize == nil || sizes.allSatisfy { Int64($0.text) == fileSize })
    }

    /// `png` with the standard's text chunks, checked against the read cap lookups apply.
    private func tagged(_ png: [UInt8], uri: String, mtime: Int64, fileSize: Int64, path: PathBytes) throws(ThumbnailCacheError) -> [UInt8] {
        let text = [
            PNGText(keyword: Self.uriKey, text: uri),
            PNGText(keyword: Self.mtimeKey, text: String(mtime)),
            PNGText(keyword: Self.sizeKey, text: String(fileSize)),
            PNGText(keyword: "Software", text: "\(appName) \(appVersion)"),
        ]
        let bytes: [UInt8]
        do { bytes = try PNGChunks.insertingText(text, into: png) } catch {
            throw ThumbnailCacheError(path: path.bytes, reason: .invalidPNG(error))
        }
        guard bytes.count <= Self.maxFileSize else {
            throw ThumbnailCacheError(path: path.bytes, reason: .invalidPNG(.malformed("\(bytes.count) bytes, over the \(Self.maxFileSize)-byte cap")))
        }
        return bytes
    }

    /// Writes `bytes` as `name` in the folder reached from the root through `folders`, making
    /// missing folders (0700) and refusing any that fail the checks.
    private func write(_ bytes: [UInt8], name: [UInt8], folders: [[UInt8]]) throws(ThumbnailCacheError) {
        guard let rootFD = try CacheFiles.openRoot(root, create: true) else {
            throw .system("open", root, errno: ENOENT)
        }
        defer { close(rootFD) }
        guard let (fd, path) = try open(folders, from: rootFD, create: true) else {
            throw .system("open", root, errno: ENOENT)
        }
        defer { close(fd) }
        try CacheFiles.replace(name, in: fd, folderPath: path, with: bytes)
    }

    /// The folder reached from the root through `chain`, each step checked, and its path;
    /// nil when one is missing and `create` is not set.
    private func open(_ chain: [[UInt8]], from rootFD: Int32, create: Bool) throws(ThumbnailCacheError) -> (Int32, [UInt8])? {
        var fd = rootFD
        var path = root
        for name in chain {
            path += [UInt8(ascii: "/")] + name
            let next: Int32?
            do throws(ThumbnailCacheError) {
                next = try CacheFiles.openFolder(name, in: fd, path: path, create: create)
            } catch {
                if fd != rootFD { close(fd) }
                throw error
            }
            if fd != rootFD { close(fd) }
            guard let next else { return nil }
            fd = next
        }
        return (fd, path)
    }
}
