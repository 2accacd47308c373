import Posix

/// Random asset identifiers: 80 bits in lowercase Crockford base32, 16 characters.
///
/// Random rather than sequential so an id never encodes order or count, and is never
/// handed out twice in practice (the store also rejects a duplicate and draws again).
enum AssetID {
    /// One new id.
    static func generate() -> String {
        var source = Source()
        return source.next().text
    }

    /// Ids drawn from random bytes fetched from the kernel a few hundred at a time: one system
    /// call per `idsPerDraw` ids, not two per id. Each id is still 80 fresh random bits, used once.
    struct Source {
        static let idsPerDraw = 64
        private var pool: [UInt8] = []
        private var used = 0

        /// A new id: its text, and the 10 bytes it is stored as (`AssetEncoding.id`).
        mutating func next() -> (text: String, bytes: [UInt8]) {
            if used + 10 > pool.count {
                pool = RandomBytes.draw(Self.idsPerDraw * 10)
                used = 0
            }
            let bytes = Array(pool[used..<used + 10])
            used += 10
            return (AssetEncoding.idText(bytes: bytes[...]), bytes)
        }
    }
}
