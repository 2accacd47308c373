/// One key the picker acts on, decoded from what the terminal sends.
enum PickerKey: Equatable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, space, backspace, tab, escape
    /// Ctrl-C: raw mode turns off the signal, so it arrives as a key and cancels like q.
    case interrupt
    /// Ctrl-D, or the terminal's end.
    case endOfInput
    /// A printable character (never a control: those are decoded above or dropped).
    case character(Character)
}

/// Turns the bytes a terminal sends into keys: pure, so it is tested without a terminal.
///
/// Escape sequences may arrive split across reads, so an unfinished one is kept for the next
/// `feed`; a lone ESC at the end of a read is the Esc key (terminals send a whole sequence in
/// one write). Replies the picker did not wait for (a late kitty answer, a DA1 reply) are
/// swallowed, never read as keys.
struct KeyDecoder: Sendable {
    /// Bytes of a sequence or character not yet complete.
    private var pending: [UInt8] = []

    /// The keys in `bytes` (after what an earlier feed left unfinished).
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [PickerKey] {
        pending.append(contentsOf: bytes)
        var keys: [PickerKey] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decode(pending, at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at `index` (nil for bytes that are no key) and how many bytes it took; nil when
    /// the bytes there are an unfinished sequence.
    static func decode(_ bytes: [UInt8], at index: Int) -> (PickerKey?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return escape(bytes, at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x20: return (.space, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case ..<0x20: return (nil, 1)
        default: return character(bytes, at: index)
        }
    }

    /// An escape sequence: CSI and SS3 keys, string sequences (APC, DCS, OSC) swallowed whole.
    private static func escape(_ bytes: [UInt8], at index: Int) -> (PickerKey?, Int)? {
        guard index + 1 < bytes.count else { return (.escape, 1) }
        switch bytes[index + 1] {
        case UInt8(ascii: "["): return csi(bytes, at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < bytes.count else { return nil }
            return (final(bytes[index + 2], parameter: ""), 3)
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
            // Ends at ST (ESC \) or, for OSC, BEL; kept pending until it does.
            var end = index + 2
            while end < bytes.count {
                if bytes[end] == 0x07 { return (nil, end - index + 1) }
                if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") {
                    return (nil, end - index + 2)
                }
                end += 1
            }
            return nil
        case 0x1B:
            return (.escape, 1)
        default:
            // Alt and a key: the Esc key; the key that follows is read on its own.
            return (.escape, 1)
        }
    }

    /// `ESC [ parameters intermediates final`: arrows, Home/End, PgUp/PgDn; others dropped.
    private static func csi(_ bytes: [UInt8], at index: Int) -> (PickerKey?, Int)? {
        var end = index + 2
        var parameter = ""
        while end < bytes.count {
            let byte = bytes[end]
            if (0x40...0x7E).contains(byte) {
                return (final(byte, parameter: parameter), end - index + 1)
            }
            guard (0x20...0x3F).contains(byte) else { return (nil, end - index) }
            parameter.unicodeScalars.append(Unicode.Scalar(byte))
            end += 1
        }
        return nil
    }

    /// The key a CSI or SS3 sequence's final byte (and, for `~`, its number) names.
    private static func final(_ byte: UInt8, parameter: String) -> PickerKey? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameter {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }

    /// One UTF-8 character; invalid bytes are dropped, an unfinished sequence waits.
    private static func character(_ bytes: [UInt8], at index: Int) -> (PickerKey?, Int)? {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0 else { return (nil, 1) }
        guard index + length <= bytes.count else { return nil }
        let text = String(validating: bytes[index..<index + length], as: UTF8.self)
        let isControl = { (scalar: Unicode.Scalar) in scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        guard let text, let character = text.first, !text.unicodeScalars.contains(where: isControl) else {
            return (nil, 1)
        }
        return (.character(character), length)
    }
}
