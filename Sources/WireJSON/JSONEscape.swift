/// JSON's one-letter escapes (RFC 8259), shared by this reader and the server's StrictJSON.
public enum JSONEscape {
    /// The byte `\` and `letter` stand for: `"`, `\`, `/`, or a control (`b f n r t`); nil for
    /// any other letter (`u` starts four hex digits, and the rest are no escape).
    public static func byte(forLetter letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}
