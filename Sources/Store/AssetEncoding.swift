import SQLite

/// How the compact columns of `assets` (schema 9) hold what `AssetContent` and the id say, so that
/// a row costs a hundred bytes or so instead of two hundred; every value reads back exactly as written.
///
/// - `id`: the 16 base32 characters as their 10 bytes (a blob sorts as the text did, so order and
///   prefix ranges are kept); an id of another form (none is made) stays text.
/// - `taken`: '' when it is exactly `taken_key` written as "YYYY-MM-DDTHH:MM:SS" (a camera time
///   without offset or fraction: almost every photo), else the text.
/// - `spelling`: NULL when it is the group's key. `description`: the integer 1 when it is the
///   spelling (the common case: the description named the group as it is).
/// - `format`, `description_source`: a small integer for a known name, else the text.
enum AssetEncoding {
    // MARK: Ids

    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = Int8(value) }
        return table
    }()

    /// The id as stored: 10 bytes for a 16-character base32 id, the text otherwise.
    static func id(_ text: String) -> SQLiteValue {
        guard let bytes = idBytes(text) else { return .text(text) }
        return .blob(bytes)
    }

    /// The 10 bytes of a 16-character base32 id (big-endian, so bytes sort as the text does).
    static func idBytes(_ text: String) -> [UInt8]? {
        var number: UInt128 = 0
        var count = 0
        for character in text.utf8 {
            let value = values[Int(character)]
            guard count < 16, value >= 0 else { return nil }
            number = number << 5 | UInt128(value)
            count += 1
        }
        guard count == 16 else { return nil }
        return (0..<10).map { UInt8(truncatingIfNeeded: number >> (72 - 8 * $0)) }
    }

    /// The text of a stored id (a blob of 10 bytes, or text).
    static func idText(_ statement: SQLiteStatement, _ column: Int32) -> String {
        guard statement.isBlob(column) else { return statement.text(column) ?? "" }
        // Read in place: a reconcile turns every indexed row's id to text.
        guard let (number, count) = statement.smallBlob(column), count == 10 else { return "" }
        return idText(number: number)
    }

    /// The text of an id's 10 bytes ("" for any other count).
    static func idText(bytes: ArraySlice<UInt8>) -> String {
        guard bytes.count == 10 else { return "" }
        var number: UInt128 = 0
        for byte in bytes { number = number << 8 | UInt128(byte) }
        return idText(number: number)
    }

    /// The text of an id whose 10 bytes are `number`'s low 80 bits, big-endian.
    private static func idText(number: UInt128) -> String {
        // 5 bits per character, most significant first.
        var characters: [UInt8] = []
        characters.reserveCapacity(16)
        for place in 0..<16 { characters.append(alphabet[Int(truncatingIfNeeded: number >> (75 - 5 * place)) & 0x1F]) }
        return String(decoding: characters, as: UTF8.self)
    }

    /// A stored id as bytes that sort as SQLite sorts the values (text before blobs).
    static func sortKey(_ value: SQLiteValue) -> [UInt8] {
        switch value {
        case .blob(let bytes): [1] + bytes
        case .text(let text): [0] + Array(text.utf8)
        case .null, .integer: []
        }
    }

    /// The stored range of ids starting with `prefix`: [low, high), high nil for no upper end;
    /// nil when no id can start with it (a character outside the alphabet, longer than an id).
    static func idRange(prefix: String) -> (low: SQLiteValue, high: SQLiteValue?)? {
        let characters = Array(prefix.utf8)
        guard characters.count <= 16, characters.allSatisfy({ values[Int($0)] >= 0 }) else { return nil }
        let low = String(decoding: characters + Array(repeating: alphabet[0], count: 16 - characters.count), as: UTF8.self)
        // The prefix raised by one in its last place, carrying; no upper end when it overflows.
        var raised = characters
        while let last = raised.popLast() {
            let value = Int(values[Int(last)])
            if value < 31 {
                raised.append(alphabet[value + 1])
                let high = raised + Array(repeating: alphabet[0], count: 16 - raised.count)
                return (id(low), id(String(decoding: high, as: UTF8.self)))
            }
        }
        return (id(low), nil)
    }

    // MARK: Taken

    /// `taken` as stored: '' when `takenNs` written out gives it back exactly.
    static func taken(_ taken: String?, takenNs: Int64?) -> SQLiteValue {
        guard let taken else { return .null }
        if let takenNs, canonicalTaken(takenNs) == taken { return .text("") }
        return .text(taken)
    }

    /// `taken` as read: the stored text, or `takenKey` written out for ''.
    static func taken(stored: String?, takenKey: Int64) -> String? {
        guard let stored else { return nil }
        return stored.isEmpty ? canonicalTaken(takenKey) ?? "" : stored
    }

    /// The SQL that reads a stored `taken` of `assets a` back as text (the same rule in SQLite's
    /// own date functions, for the queries that compare or aggregate it there).
    static let takenSQL =
        "(CASE WHEN a.taken = '' THEN strftime('%Y-%m-%dT%H:%M:%S', a.taken_key / 1000000000, 'unixepoch') ELSE a.taken END)"

    /// Nanoseconds since the epoch as "YYYY-MM-DDTHH:MM:SS" (UTC) when they are a whole second;
    /// nil otherwise. (64-bit nanoseconds reach the years 1677 to 2262: always four digits.)
    static func canonicalTaken(_ nanoseconds: Int64) -> String? {
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return fraction == 0 ? ISOTime.wallClock(seconds: seconds) : nil
    }

    // MARK: Group spelling and description

    /// The spelling as stored: NULL when it is the group's key.
    static func spelling(_ spelling: String, key: String) -> SQLiteValue {
        spelling == key ? .null : .text(spelling)
    }

    /// The description as stored: 1 when it is the spelling.
    static func description(_ description: String?, spelling: String) -> SQLiteValue {
        guard let description else { return .null }
        return description == spelling ? .integer(1) : .text(description)
    }

    /// The description as read back.
    static func description(_ statement: SQLiteStatement, _ column: Int32, spelling: String) -> String? {
        if statement.isNull(column) { return nil }
        return statement.isInteger(column) ? spelling : statement.text(column)
    }

    // MARK: Names

    /// Names stored as their number in this list (plus one). Append only: stored rows keep them.
    static let names = [
        "jpeg", "png", "tiff", "bigtiff", "webp", "heif", "avif", "gif", "bmp", "jxl", "jp2", "psd", "cr3", "crw", "raf",
        "mrw", "x3f", "exv", "unknown", "exif", "xmp", "iptc", "sidecar",
    ]
    private static let codes: [String: Int64] = Dictionary(
        uniqueKeysWithValues: names.enumerated().map { ($1, Int64($0 + 1)) })

    /// A name as stored: its code when it has one, else the text.
    static func name(_ name: String?) -> SQLiteValue {
        guard let name else { return .null }
        return codes[name].map { .integer($0) } ?? .text(name)
    }

    /// A name as read back.
    static func name(_ statement: SQLiteStatement, _ column: Int32) -> String? {
        if statement.isNull(column) { return nil }
        guard statement.isInteger(column) else { return statement.text(column) }
        let code = Int(statement.int64(column))
        return names.indices.contains(code - 1) ? names[code - 1] : ""
    }
}
