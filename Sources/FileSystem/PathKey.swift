/// A path as a dictionary key that hashes its bytes in one call.
///
/// `[UInt8]`'s own hashing feeds the hasher one byte at a time, which showed up as 8% of a
/// restart over 10,000 photos.
public struct PathKey: Hashable, Sendable {
    /// The path's bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Hashes the bytes as one buffer.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension Array where Element == UInt8 {
    /// Whether this path lies inside `folder`, whole component by whole component: `/a/b/c` is
    /// inside `/a/b` (and `/a/b/`), `/a/bc` is not, and a folder is not inside itself. The one
    /// place photod asks "is this under that folder" of raw path bytes.
    public func isPathInside(_ folder: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        let base = folder.last == slash ? folder.dropLast() : folder[...]
        return count > base.count + 1 && self[base.count] == slash && starts(with: base)
    }
}
