#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's environment variables, read from `environ` itself.
public enum EnvironmentVariables {
    /// Every variable by name, as `ProcessInfo.processInfo.environment` gives them: each entry
    /// split at its first `=` (an entry without one left out), bytes that are not UTF-8 repaired
    /// as `String(cString:)` repairs them, and the last of a repeated name kept.
    ///
    /// ProcessInfo's copy runs FoundationEssentials' code unspecialized, with its first use's
    /// set-up: 0.7M instructions for a shell's few dozen variables, a sixth of `photoctl groups`.
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        // nil when the process has no environment at all.
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let pointer = entry?.pointee {
            let text = String(cString: pointer)
            if let equals = firstEquals(in: text) {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry = entry?.successor()
        }
        return variables
    }

    /// Where the first `=` character is, as `text.firstIndex(of: "=")` finds it. That search reads
    /// grapheme clusters (two thirds of the whole copy); an `=` between two ASCII bytes is a
    /// cluster of its own, so only a text where it touches other bytes needs it.
    private static func firstEquals(in text: String) -> String.Index? {
        let bytes = text.utf8
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let after = bytes.index(after: equals)
        let asciiBefore = equals == bytes.startIndex || bytes[bytes.index(before: equals)] < 0x80
        let asciiAfter = after == bytes.endIndex || bytes[after] < 0x80
        return asciiBefore && asciiAfter ? equals : text.firstIndex(of: "=")
    }
}
