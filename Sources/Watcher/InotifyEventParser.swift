/// Splits the bytes of one inotify `read()` into events.
///
/// `struct inotify_event` is `{ int wd; uint32_t mask, cookie, len; char name[len]; }` in native
/// byte order: the name (NUL-padded to `len`) starts at offset 16, and the next event at 16 + len.
enum InotifyEventParser {
    private static let headerSize = 16

    /// The events in `bytes`; a truncated trailing event is ignored.
    static func parse(_ bytes: [UInt8]) -> [WatchEvent] {
        var events: [WatchEvent] = []
        var offset = 0
        while offset + headerSize <= bytes.count {
            let length = Int(word(bytes, at: offset + 12))
            let nameStart = offset + headerSize
            let nameEnd = nameStart + length
            guard nameEnd <= bytes.count else { break }
            let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
            events.append(
                WatchEvent(
                    wd: Int32(bitPattern: word(bytes, at: offset)),
                    mask: word(bytes, at: offset + 4),
                    cookie: word(bytes, at: offset + 8),
                    name: Array(name)))
            offset = nameEnd
        }
        return events
    }

    /// The native-endian 32-bit word at `offset`.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        let b0 = UInt32(bytes[offset]), b1 = UInt32(bytes[offset + 1])
        let b2 = UInt32(bytes[offset + 2]), b3 = UInt32(bytes[offset + 3])
        #if _endian(little)
        return b0 | b1 << 8 | b2 << 16 | b3 << 24
        #else
        return b3 | b2 << 8 | b1 << 16 | b0 << 24
        #endif
    }
}
