/// How the terminal can show a picture, as the picker found out at its start.
enum PictureProtocol: String, Equatable, Sendable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole): thumbnails are shown.
    case kitty
    /// Sixel (xterm -ti vt340, foot, mlterm): thumbnails are decoded and drawn as sixel.
    case sixel
    /// Names, dates, groups and sizes only.
    case text

    /// Whether the picker shows thumbnails with it.
    var showsPictures: Bool { self != .text }
}

/// Finds out the picture protocol from the terminal's replies: pure, so tested with simulated replies.
///
/// The picker writes `query`: a kitty graphics query (a 1×1 image that is checked, never
/// stored) and then a DA1 request, which every terminal answers. Terminals answer in order, so
/// once the DA1 reply is in, a kitty terminal has answered too; a terminal that answers nothing
/// at all is left after a short timeout (`fallback`).
struct ProtocolDetector: Sendable {
    /// The image id of the query; the reply names it.
    static let queryID = 31
    /// Kitty query, then DA1.
    static let query = "\u{1B}_Gi=\(queryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"
    /// What a kitty terminal's reply holds.
    private static let kittyOK = Array("\u{1B}_Gi=\(queryID);OK".utf8)

    /// The replies so far (bounded: a terminal that floods is not waited for).
    private var replies: [UInt8] = []

    /// Adds `bytes` read from the terminal; returns the protocol once the replies tell it.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> PictureProtocol? {
        replies.append(contentsOf: bytes)
        if replies.count > 4096 { return fallback }
        guard let parameters = Self.deviceAttributes(in: replies) else { return nil }
        if sawKitty { return .kitty }
        return parameters.contains(4) ? .sixel : .text
    }

    /// The answer when the terminal stopped answering: kitty if it said so, else text.
    var fallback: PictureProtocol { sawKitty ? .kitty : .text }

    /// Whether the kitty reply has arrived.
    private var sawKitty: Bool { Self.range(of: Self.kittyOK, in: replies) != nil }

    /// The numbers of a DA1 reply (`ESC [ ? 62 ; 4 ; 22 c`), nil before one is complete.
    static func deviceAttributes(in bytes: [UInt8]) -> [Int]? {
        guard let start = range(of: Array("\u{1B}[?".utf8), in: bytes) else { return nil }
        var numbers: [Int] = []
        var current = 0
        for byte in bytes[start.upperBound...] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): current = min(current * 10 + Int(byte - 0x30), 1_000_000)
            case UInt8(ascii: ";"): numbers.append(current); current = 0
            case UInt8(ascii: "c"): return numbers + [current]
            default: return nil
            }
        }
        return nil
    }

    /// Where `needle` first occurs in `haystack`.
    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
        }
        return nil
    }
}
