#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import SQLite

/// A logged change as stored in `changes.payload`: the change's JSON without its id lists,
/// then the inserted, removed and updated ids as their 10 stored bytes each (`AssetEncoding`).
/// Ids are most of a change (a first index logs every photo's), and as JSON text each took
/// 19 bytes. Payloads logged before this are JSON text and read as they are.
///
/// Layout: 0x02, the JSON's length (4 bytes, big-endian), the JSON, then per list a count
/// (4 bytes) and each id as one length byte (0x80 | 10 for packed bytes, else the text's
/// length) followed by its bytes; then the moves: a count, and per move its id as above and
/// its two paths, each a length (4 bytes) and its bytes. Version 1 (written before) had no
/// moves part and kept them in the JSON, each path byte a JSON number, which made a renamed
/// root's change take seconds to encode (bench/README.md, "Figures behind the code").
enum ChangePayload {
    private static let version: UInt8 = 2
    /// The layout without the moves part, still read.
    private static let versionWithJSONMoves: UInt8 = 1

    /// The stored payload of `change`.
    static func encode(_ change: CommittedChange) throws -> [UInt8] {
        var rest = change
        rest.inserted = []
        rest.removed = []
        rest.updated = []
        rest.moved = []
        let json = Array(try JSONEncoder().encode(rest))
        var bytes: [UInt8] = [version]
        append(UInt32(json.count), to: &bytes)
        bytes += json
        for list in [change.inserted, change.removed, change.updated] {
            append(UInt32(list.count), to: &bytes)
            for id in list { append(id: id, to: &bytes) }
        }
        append(UInt32(change.moved.count), to: &bytes)
        for move in change.moved {
            append(id: move.id, to: &bytes)
            for path in [move.from.bytes, move.to.bytes] {
                append(UInt32(path.count), to: &bytes)
                bytes += path
            }
        }
        return bytes
    }

    private static func append(id: String, to bytes: inout [UInt8]) {
        if let packed = AssetEncoding.idBytes(id) {
            bytes.append(0x80 | UInt8(packed.count))
            bytes += packed
        } else {
            let text = Array(id.utf8.prefix(0x7F))
            bytes.append(UInt8(text.count))
            bytes += text
        }
    }

    /// The change stored in column `column` (this layout, or JSON text); nil when it cannot be read.
    static func decode(_ statement: SQLiteStatement, _ column: Int32) -> CommittedChange? {
        guard statement.isBlob(column) else {
            return try? JSONDecoder().decode(CommittedChange.self, from: Data((statement.text(column) ?? "").utf8))
        }
        var reader = Reader(bytes: statement.blob(column))
        guard let layout = reader.byte(), layout == version || layout == versionWithJSONMoves,
              let length = reader.count(), let json = reader.take(length),
              var change = try? JSONDecoder().decode(CommittedChange.self, from: Data(json))
        else { return nil }
        var lists: [[String]] = []
        for _ in 0..<3 {
            // Each id takes at least its length byte: a count past what is left is a lie.
            guard let count = reader.count(), count <= reader.remaining else { return nil }
            var ids: [String] = []
            ids.reserveCapacity(count)
            for _ in 0..<count {
                guard let id = reader.id() else { return nil }
                ids.append(id)
            }
            lists.append(ids)
        }
        (change.inserted, change.removed, change.updated) = (lists[0], lists[1], lists[2])
        if layout == version {
            // A move takes at least 9 bytes (its id's length byte and two path lengths).
            guard let count = reader.count(), count <= reader.remaining / 9 else { return nil }
            var moves: [MovedAsset] = []
            moves.reserveCapacity(count)
            for _ in 0..<count {
                guard let id = reader.id(), let fromLength = reader.count(), let from = reader.take(fromLength),
                      let toLength = reader.count(), let to = reader.take(toLength)
                else { return nil }
                moves.append(MovedAsset(id: id, from: PathBytes(Array(from)), to: PathBytes(Array(to))))
            }
            change.moved = moves
        }
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

        /// An id: its length byte (0x80 set for packed bytes), then its bytes.
        mutating func id() -> String? {
            guard let tag = byte(), let id = take(Int(tag & 0x7F)) else { return nil }
            return tag & 0x80 != 0 ? AssetEncoding.idText(bytes: id) : String(decoding: id, as: UTF8.self)
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
