#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Why the cache refused or failed an operation, with the path it concerned.
public struct ThumbnailCacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// A system call failed with this errno.
        case system(operation: String, errno: Int32)
        /// A cache folder is a symlink; following it could write thumbnails anywhere.
        case symlink
        /// A cache folder exists but is not a directory.
        case notADirectory
        /// A cache folder belongs to another user, whose folder this process must not change.
        case notOwned(owner: UInt32)
        /// A cache folder is writable by group or others, who could swap files under it.
        case writableByOthers(mode: UInt32)
        /// The source path is not absolute (or holds a NUL byte), so it has no file URI.
        case notAbsolute
        /// The application name or version cannot be one folder name.
        case invalidName
        /// The bytes given as a thumbnail are not a PNG this cache will store.
        case invalidPNG(PNGError)
        /// The thumbnail does not fit the size's square box.
        case tooLarge(width: Int, height: Int, box: Int)
    }

    /// The path concerned (bytes, as paths may not be UTF-8).
    public var path: [UInt8]
    /// What went wrong.
    public var reason: Reason

    /// An error about `path`.
    public init(path: [UInt8], reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// `errno`'s current value as a failed `operation` on `path`.
    static func system(_ operation: String, _ path: [UInt8], errno code: Int32 = errno) -> ThumbnailCacheError {
        ThumbnailCacheError(path: path, reason: .system(operation: operation, errno: code))
    }

    /// "thumbnail cache: <path>: <what>", the path escaped so no control byte reaches a terminal or log.
    public var description: String {
        let what: String
        switch reason {
        case .system(let operation, let code): what = "\(operation) failed: \(Errno(rawValue: code))"
        case .symlink: what = "is a symlink; refusing to follow it"
        case .notADirectory: what = "is not a directory"
        case .notOwned(let owner): what = "belongs to uid \(owner), not this user (uid \(geteuid())); refusing to use it"
        case .writableByOthers(let mode): what = "is writable by others (mode \(String(mode & 0o7777, radix: 8))); refusing to use it"
        case .notAbsolute: what = "is not an absolute path"
        case .invalidName: what = "application name and version must make one folder name"
        case .invalidPNG(let error): what = "\(error)"
        case .tooLarge(let width, let height, let box): what = "a \(width)x\(height) thumbnail does not fit the \(box)x\(box) box"
        }
        return "thumbnail cache: \(Self.printable(path)): \(what)"
    }

    /// The path as text: UTF-8 where it is valid, control characters and other bytes as \xNN.
    static func printable(_ path: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < path.count {
            // A fresh decoder at each byte offset, so an invalid byte is shown as itself and
            // decoding resumes right after it.
            var bytes = path[index...].makeIterator()
            var decoder = UTF8()
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar) where scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && scalar != "\\":
                text.unicodeScalars.append(scalar)
                index += UTF8.width(scalar)
            case .scalarValue, .error:
                text += hex(path[index])
                index += 1
            case .emptyInput:
                index = path.count
            }
        }
        return text
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
