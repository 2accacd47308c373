import FileSystem
import Foundation
import Glibc
import Metadata
import Posix
import Store
@testable import PhotoDaemon

/// Files on disk for the description writer's tests: stamps as the index holds them, bytes,
/// modes and extended attributes.
enum DescribeFixture {
    /// A writer with photod's default description sources and grouping rules.
    static func writer(sources: [Metadata.DescriptionSource] = DescriptionSources.defaultOrder) -> DescriptionWriter {
        DescriptionWriter(reader: AssetReader(rules: GroupingRules(), sources: sources))
    }

    /// The stamp the index would hold for `path` now.
    static func stamp(_ path: String) throws -> FileStamp {
        guard case .success(let info) = FileSystem.linkStatus(PathBytes(path)) else { throw POSIXError(.ENOENT) }
        return FileStamp(info)
    }

    /// The file's bytes.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The permission bits (`st_mode & 07777`).
    static func mode(_ path: String) -> UInt32 {
        var status = stat()
        return lstat(path, &status) == 0 ? UInt32(status.st_mode) & 0o7777 : 0
    }

    /// Sets the permission bits.
    static func chmod(_ path: String, _ mode: UInt32) throws {
        guard Glibc.chmod(path, mode_t(mode)) == 0 else { throw POSIXError(.EPERM) }
    }

    /// Sets extended attribute `name` of `path` to `value`.
    static func setAttribute(_ path: String, _ name: String, _ value: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(fd) }
        try ExtendedAttributes.set(Array(name.utf8), to: Array(value.utf8), on: fd)
    }

    /// The value of extended attribute `name` of `path`, nil when it has none.
    static func attribute(_ path: String, _ name: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(fd) }
        return try ExtendedAttributes.value(Array(name.utf8), of: fd).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every name in `folder`, hidden ones included, sorted.
    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The files photod's walk finds below `folder` (hidden names are outside the library).
    static func walked(_ folder: String) -> [String] {
        var found: [String] = []
        DirectoryWalker(root: PathBytes(folder)).walk { found.append($0.path.description) }
        return found
    }
}
