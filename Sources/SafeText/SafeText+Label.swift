extension SafeText {
    /// The longest label shown, in characters; an app needs no more to be recognised, and a
    /// longer one leaves room to imitate the text around it.
    public static let labelCharacters = 32

    /// Text an app chose about itself (its label), set apart for a prompt or a notification:
    /// in double quotes, at most `maxCharacters` characters (then "…"), with everything escaped
    /// that `escaped(_:)` escapes, and also a double quote (so it cannot close the quotes early)
    /// and every character that prints as nothing or as a blank (`looksBlank`), so that no run
    /// of invisible characters can push the real text out of sight.
    ///
    /// The result is already escaped: print it as it is, never through `escaped` again.
    public static func quoted(_ text: String, maxCharacters: Int = labelCharacters) -> String {
        var out = "\""
        var count = 0
        // A character can hold any number of combining marks: they are capped too.
        var scalars = 0
        for character in text {
            guard count < maxCharacters && scalars < 4 * maxCharacters else {
                out += "…"
                break
            }
            count += 1
            let kept = character.unicodeScalars.prefix(4 * maxCharacters - scalars)
            for scalar in kept {
                scalars += 1
                if scalar == "\"" {
                    out += "\\\""
                } else if scalar != " " && looksBlank(scalar) {
                    out += "\\u{" + hex(scalar.value) + "}"
                } else {
                    append(scalar, to: &out, shortEscapes: false)
                }
            }
            if kept.count < character.unicodeScalars.count {
                out += "…"
                break
            }
        }
        return out + "\""
    }

    /// Whether `scalar` prints as nothing or as a blank: spaces of every width, format
    /// characters (zero-width and bidi controls among them), and the letters and symbols that
    /// fonts draw empty (Braille blank, the Hangul fillers, the combining grapheme joiner).
    public static func looksBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x034F, 0x180E, 0x17B4, 0x17B5, 0x2062...0x2064:
            return true
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .format, .control, .lineSeparator, .paragraphSeparator: return true
        default: return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.isWhitespace
        }
    }
}
