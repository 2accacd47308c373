#if canImport(Glibc)
import Glibc
#endif

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

extension Array where Element == UInt8 {
    /// Byte order, as `memcmp` and SQLite compare blobs (a prefix first): the order a walk
    /// reports paths in and an index keyed by path keeps them in. Negative, zero or positive.
    public func pathOrder(_ other: [UInt8]) -> Int {
        let common = Swift.min(count, other.count)
        let order = prefixOrder(other, count: common)
        return order != 0 ? order : count - other.count
    }

    /// `memcmp` of the first `count` bytes of both (at most the shorter one's length).
    func prefixOrder(_ other: [UInt8], count: Int) -> Int {
        withUnsafeBufferPointer { left in
            other.withUnsafeBufferPointer { right in
                guard count > 0, let left = left.baseAddress, let right = right.baseAddress else { return 0 }
                return Int(memcmp(left, right, count))
            }
        }
    }
}
