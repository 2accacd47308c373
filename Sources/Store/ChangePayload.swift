#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLite

/// A logged change as stored in `changes.payload`: the change's JSON without its id lists,
/// then the inserted, removed and updated ids as their 10 stored bytes each (`AssetEncoding`).
/// Ids are most of a change (a first index logs every photo's), and as JSON text each took
/// 19 bytes. Payloads logged before this are JSON text and read as they are.
///
/// Layout: 0x01, the JSON's length (4 bytes, big-endian), the JSON, then per list a count
/// (4 bytes) and each id as one length byte (0x80 | 10 for packed bytes, else the text's
/// length) followed by its bytes.
enum ChangePayload {
    private static let version: UInt8 = 1

    /// The stored payload of `change`.
    static func encode(_ change: CommittedChange) throws -> [UInt8] {
        var rest = change
        rest.inserted = []
        rest.removed = []
        rest.updated = []
        let json = Array(try JSONEncoder().encode(rest))
        var bytes: [UInt8] = [version]
        append(UInt32(json.count), to: &bytes)
        bytes += json
        for list in [change.inserted, change.removed, change.updated] {
            append(UInt32(list.count), to: &bytes)
            for id in list {
                if let packed = AssetEncoding.idBytes(id) {
                    bytes.append(0x80 | UInt8(packed.count))
                    bytes += packed
                } else {
                    let text = Array(id.utf8.prefix(0x7F))
                    bytes.append(UInt8(text.count))
                    bytes += text
                }
            }
        }
        return bytes
    }

    /// The change stored in column `column` (this layout, or JSON text); nil when it cannot be read.
    static func decode(_ statement: SQLiteStatement, _ column: Int32) -> CommittedChange? {
        guard statement.isBlob(column) else {
            return try? JSONDecoder().decode(CommittedChange.self, from: Data((statement.text(column) ?? "").utf8))
        }
        var reader = Reader(bytes: statement.blob(column))
        guard reader.byte() == version, let length = reader.count(), let json = reader.take(length),
              var change = try? JSONDecoder().decode(CommittedChange.self, from: Data(json))
        else { return nil }
        var lists: [[String]] = []
        for _ in 0..<3 {
            guard let count = reader.count(), count <= reader.remaining else { return nil }
            var ids: [String] = []
            ids.reserveCapacity(count)
            for _ in 0..<count {
                guard let tag = reader.byte(), let id = reader.take(Int(tag & 0x7F)) else { return nil }
                ids.append(tag & 0x80 != 0 ? AssetEncoding.idText(bytes: id) : String(decoding: id, as: UTF8.self))
            }
            lists.append(ids)
        }
        (change.inserted, change.removed, change.updated) = (lists[0], lists[1], lists[2])
        return change
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Reads a payload front to back, every read bounded by what is left.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            offset += 1
            return bytes[offset - 1]
        }

        mutating func count() -> Int? {
            guard let slice = take(4) else { return nil }
            return slice.reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= remaining else { return nil }
            offset += count
            return bytes[(offset - count)..<offset]
        }
    }
}
