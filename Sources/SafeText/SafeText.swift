/// Text from a photo, a file name or an app, made safe for a terminal or a log line.
///
/// Every scalar that could act instead of print is shown as `\u{XX}`: C0 and C1 controls
/// (newline, ESC, so no title, clipboard or clear-screen sequence and no forged line), DEL,
/// format characters (bidi overrides that reorder what follows) and line/paragraph separators.
/// A backslash is doubled, so an escape in the output always came from this function and the
/// original text can be read back unambiguously. Bytes that are not UTF-8 are shown as `\x{XX}`.
public enum SafeText {
    /// `text` with every scalar that could act on a terminal or split a log line escaped.
    /// With `shortEscapes`, a tab and a newline are shown as `\t` and `\n` instead (tab-separated
    /// values, where those two are common in text and the short forms are what readers expect).
    public static func escaped(_ text: String, shortEscapes: Bool = false) -> String {
        // Printable ASCII but the backslash, most of every table, is its own escape: no look at
        // each scalar's Unicode properties.
        if text.utf8.allSatisfy(isPlainASCII) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &out, shortEscapes: shortEscapes) }
        return out
    }

    /// Bytes (a path need not be UTF-8) shown as text: valid UTF-8 escaped as `escaped(_:)` does,
    /// every byte that is not part of a valid sequence as `\x{XX}`.
    public static func escaped(bytes: some Collection<UInt8>, shortEscapes: Bool = false) -> String {
        // A path of plain ASCII (most of them) is its own escape, as in `escaped(_:)`: taken
        // whole instead of scalar by scalar. Read through a buffer pointer: a generic collection
        // from another module is walked byte by byte through witness tables.
        let plain = bytes.withContiguousStorageIfAvailable { buffer in
            buffer.allSatisfy(isPlainASCII) ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if let plain = plain ?? nil { return plain }
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        let all = Array(bytes)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                append(Unicode.UTF8.decode(encoded), to: &out, shortEscapes: shortEscapes)
                offset += encoded.count
            case .error(let length):
                for byte in all[offset..<min(offset + length, all.count)] {
                    out += "\\x{" + hex(UInt32(byte)) + "}"
                }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }

    /// `escaped(text)`, cut to at most `maxBytes` UTF-8 bytes at a scalar boundary, with "…"
    /// and the number of bytes left out, so a log line cannot be made arbitrarily long.
    public static func escaped(_ text: String, maxBytes: Int) -> String {
        let full = escaped(text)
        guard full.utf8.count > maxBytes else { return full }
        var kept = ""
        var used = 0
        for scalar in full.unicodeScalars {
            let size = UTF8.width(scalar)
            if used + size > maxBytes { break }
            kept.unicodeScalars.append(scalar)
            used += size
        }
        return kept + "…(\(full.utf8.count - used) more bytes)"
    }

    /// Whether `scalar` would act on a terminal or a log line instead of being printed.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\\" }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// A byte of printable ASCII other than the backslash: one that `escaped` keeps as it is.
    static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\")
    }

    static func append(_ scalar: Unicode.Scalar, to out: inout String, shortEscapes: Bool) {
        if scalar == "\\" {
            out += "\\\\"
        } else if shortEscapes, scalar == "\t" || scalar == "\n" {
            out += scalar == "\t" ? "\\t" : "\\n"
        } else if needsEscape(scalar) {
            out += "\\u{" + hex(scalar.value) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
