#if canImport(Glibc)
import Glibc
#endif

/// A path as the kernel has it: bytes (a Linux name need not be UTF-8, and the index must
/// round-trip every name it finds), ordered byte by byte.
///
/// Byte order is the order a walk reports paths in and an index keyed by path keeps them in
/// (SQLite compares blobs as `memcmp` does), so a reconcile can merge the two as they go. The
/// operations on paths are here, each once.
public struct PathBytes: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    /// Wraps `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The UTF-8 of `text`.
    public init(_ text: String) { self.bytes = Array(text.utf8) }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
    /// The root folder, "/".
    public static let root = PathBytes([slash])

    /// Whether the path has no bytes: no path at all (a record of an unknown mount point).
    public var isEmpty: Bool { bytes.isEmpty }

    /// Decodes the bytes as `[UInt8]` is: a record written when paths were bare bytes reads the same.
    public init(from decoder: any Decoder) throws {
        bytes = try decoder.singleValueContainer().decode([UInt8].self)
    }

    /// Encodes the bytes as `[UInt8]` is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }

    /// Hashes the bytes as one buffer: `[UInt8]`'s own hashing feeds the hasher one byte at a time.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Byte order (a prefix first): negative, zero or positive.
    public func order(_ other: PathBytes) -> Int {
        let common = Swift.min(bytes.count, other.bytes.count)
        let order = Self.prefixOrder(bytes, other.bytes, count: common)
        return order != 0 ? order : bytes.count - other.bytes.count
    }

    /// Whether `lhs` comes before `rhs` in byte order.
    public static func < (lhs: PathBytes, rhs: PathBytes) -> Bool { lhs.order(rhs) < 0 }

    /// Whether this path lies strictly inside `folder`, whole component by whole component:
    /// `/a/b/c` is inside `/a/b` (and `/a/b/`), `/a/bc` is not, and a folder is not inside itself.
    public func isInside(_ folder: PathBytes) -> Bool {
        let base = folder.bytes.last == Self.slash ? folder.bytes.dropLast() : folder.bytes[...]
        return bytes.count > base.count + 1 && bytes[base.count] == Self.slash && bytes.starts(with: base)
    }

    /// Whether this path is `folder` or lies inside it, component by component; unlike
    /// `isInside`, the folder itself counts, also written with a trailing "/" (`/a/b/` is `/a/b`).
    public func isSameOrInside(_ folder: PathBytes) -> Bool {
        guard bytes.count >= folder.bytes.count, bytes.starts(with: folder.bytes) else { return false }
        if bytes.count == folder.bytes.count || folder.bytes.last == Self.slash { return true }
        return bytes[folder.bytes.count] == Self.slash
    }

    /// The folder holding this path (`/a` for `/a/b` and `/a/b/`, "/" for `/a`); nil for "/" and
    /// for a name without a "/".
    public var parent: PathBytes? {
        let end = trimmedEnd
        guard end > 1, let cut = bytes[..<end].lastIndex(of: Self.slash) else { return nil }
        return cut == 0 ? Self.root : PathBytes(Array(bytes[..<cut]))
    }

    /// The last component (`b` for `/a/b` and `/a/b/`); empty for "/".
    public var lastComponent: [UInt8] {
        let end = trimmedEnd
        let start = bytes[..<end].lastIndex(of: Self.slash).map { $0 + 1 } ?? 0
        return Array(bytes[start..<end])
    }

    /// Where the path ends without its trailing slashes ("/" keeps its one).
    private var trimmedEnd: Int {
        var end = bytes.count
        while end > 1, bytes[end - 1] == Self.slash { end -= 1 }
        return end
    }

    /// This path with `name` appended as one more component, without doubling a trailing "/".
    public func appending(_ name: [UInt8]) -> PathBytes {
        var path = [UInt8]()
        path.reserveCapacity(bytes.count + 1 + name.count)
        path += bytes
        if path.last != Self.slash { path.append(Self.slash) }
        path += name
        return PathBytes(path)
    }

    /// This path with `suffix` added to the end of its last component (`/a/b.jpg.xmp` for
    /// `/a/b.jpg` and `.xmp`): a name made from another, as a sidecar's is from its image's.
    public func appendingToName(_ suffix: [UInt8]) -> PathBytes {
        PathBytes(bytes + suffix)
    }

    /// The bytes after the last "." of the last component (`jpg` for `/a/b.jpg`, and for
    /// `/a/.jpg`); nil when the last component holds no ".".
    public var nameExtension: ArraySlice<UInt8>? {
        guard let dot = extensionDot else { return nil }
        return bytes[(dot + 1)...]
    }

    /// The path without the last component's extension and its "." (`/a/b` for `/a/b.jpg`);
    /// nil when the name has none, or is nothing but one (`.hidden`).
    public var withoutExtension: PathBytes? {
        guard let dot = extensionDot, dot > 0, bytes[dot - 1] != Self.slash else { return nil }
        return PathBytes(Array(bytes[..<dot]))
    }

    /// Where the last "." of the last component is, if it holds one.
    private var extensionDot: Int? {
        guard let dot = bytes.lastIndex(of: Self.dot) else { return nil }
        return bytes[dot...].contains(Self.slash) ? nil : dot
    }

    /// The path with a trailing "/", as the paths inside a folder begin.
    public var folderPrefix: PathBytes {
        bytes.last == Self.slash ? self : PathBytes(bytes + [Self.slash])
    }

    /// This path (`from` or inside it) moved to the same place inside `to`.
    public func rebased(from: PathBytes, to: PathBytes) -> PathBytes {
        guard bytes.count > from.bytes.count else { return to }
        var suffix = Array(bytes[from.bytes.count...])
        if from.bytes.last == Self.slash, to.bytes.last != Self.slash { suffix.insert(Self.slash, at: 0) }
        if to.bytes.last == Self.slash, suffix.first == Self.slash { suffix.removeFirst() }
        return PathBytes(to.bytes + suffix)
    }

    /// The path as a NUL-terminated C string, for a system call (a NUL inside ends it early: no
    /// path the kernel gives holds one).
    public var cString: [CChar] {
        var terminated = [CChar]()
        terminated.reserveCapacity(bytes.count + 1)
        for byte in bytes { terminated.append(CChar(bitPattern: byte)) }
        terminated.append(0)
        return terminated
    }

    /// The path as text, bytes that are not UTF-8 replaced: for logs and messages (escape it with
    /// SafeText before a terminal sees it).
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// `memcmp` of the first `count` bytes of both (at most the shorter one's length).
    static func prefixOrder(_ left: [UInt8], _ right: [UInt8], count: Int) -> Int {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                guard count > 0, let left = left.baseAddress, let right = right.baseAddress else { return 0 }
                return Int(memcmp(left, right, count))
            }
        }
    }
}
