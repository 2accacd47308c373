// The `[UInt8]` forms of two `PathBytes` operations, for the indexer (PhotoDaemon/Indexing), whose
// paths are still bare bytes; they go once it holds `PathBytes`.

extension Array where Element == UInt8 {
    /// `PathBytes.isInside(_:)` of bare bytes.
    public func isPathInside(_ folder: [UInt8]) -> Bool {
        PathBytes(self).isInside(PathBytes(folder))
    }

    /// `PathBytes.order(_:)` of bare bytes.
    public func pathOrder(_ other: [UInt8]) -> Int {
        PathBytes(self).order(PathBytes(other))
    }
}
