import Foundation

/// A fresh folder under /tmp, removed when the value is deinitialized.
///
/// Kept short (/tmp/pd-XXXXXX) because Unix socket paths inside it must stay under 108 bytes.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates the folder.
    public init() throws {
        var template = Array("/tmp/pd-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw CocoaError(.fileWriteUnknown) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` + "/" + `name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` (creating intermediate folders) and returns the full path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let full = file(name)
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Writes files whose names are not valid UTF-8 (Foundation's String paths cannot name them).
public enum RawFile {
    /// Creates `path` (exact bytes) with `contents`.
    public static func write(path: [UInt8], contents: [UInt8]) throws {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        let fd = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let written = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw CocoaError(.fileWriteUnknown) }
    }
}
