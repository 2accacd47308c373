#if canImport(Glibc)
import Glibc
#endif

/// One `[library] ignore` pattern, checked and ready for fnmatch(3), as .gitignore reads its
/// basics: `*`, `?` and `[...]` (a backslash escapes); a pattern with a "/" before its end is
/// matched against the path relative to its root ("2019/raw", "/tmp"), one without against the
/// name of a file or folder at any depth ("*_original"); a trailing "/" matches folders only.
public struct IgnorePattern: Sendable, Equatable {
    /// The pattern as written (for messages).
    public let text: String
    /// What fnmatch gets: the text without its leading and trailing "/", NUL-terminated.
    let glob: [CChar]
    /// Whether the pattern is matched against the path from the root rather than a name.
    let anchored: Bool
    /// Whether only folders match (a trailing "/").
    let foldersOnly: Bool
    /// Whether the glob has a byte past ASCII (matched in a UTF-8 locale, so `?` is one character).
    let isASCII: Bool

    /// The longest pattern, in bytes: a path component is at most 255, and a pattern longer than
    /// a few of them is a mistake, not a rule.
    public static let maxBytes = 1024

    /// Checks `text`; a pattern fnmatch would take in a way its writer did not mean (an unclosed
    /// "[", a trailing backslash, "**", "!" in front, "." or ".." components) is refused.
    public init(_ text: String) throws(IgnorePatternError) {
        func refuse(_ reason: String) -> IgnorePatternError { IgnorePatternError(pattern: text, reason: reason) }
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw refuse("is empty") }
        guard bytes.count <= Self.maxBytes else { throw refuse("is longer than \(Self.maxBytes) bytes") }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw refuse("holds a control character") }
        guard bytes.first != UInt8(ascii: "!") else {
            throw refuse("starts with \"!\": negation is not supported (write \\! for a name that starts with !)")
        }
        let slash = UInt8(ascii: "/")
        foldersOnly = bytes.last == slash
        if foldersOnly { bytes.removeLast() }
        let leading = bytes.first == slash
        if leading { bytes.removeFirst() }
        guard !bytes.isEmpty else { throw refuse("names no file or folder") }
        let components = bytes.split(separator: slash, omittingEmptySubsequences: false)
        if components.contains(where: { $0.isEmpty }) { throw refuse("has an empty component (\"//\")") }
        if components.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) {
            throw refuse("has a \".\" or \"..\" component; patterns are relative to the root")
        }
        if let problem = Self.syntaxProblem(bytes) { throw refuse(problem) }
        self.text = text
        anchored = leading || components.count > 1
        isASCII = bytes.allSatisfy { $0 < 0x80 }
        glob = bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// What fnmatch would read differently than a person: an unclosed bracket, a trailing
    /// backslash, "**" (which .gitignore has and fnmatch has not); nil when there is none.
    static func syntaxProblem(_ bytes: [UInt8]) -> String? {
        var index = 0
        var previousStar = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return "ends with a backslash that escapes nothing" }
                index += 2
                previousStar = false
                continue
            case UInt8(ascii: "*"):
                if previousStar { return "has \"**\", which is not supported: a pattern without \"/\" matches at any depth" }
                previousStar = true
                index += 1
                continue
            case UInt8(ascii: "["):
                guard let end = closingBracket(bytes, from: index) else { return "has a \"[\" that is not closed" }
                index = end + 1
            default:
                index += 1
            }
            previousStar = false
        }
        return nil
    }

    /// The index of the "]" closing the bracket expression opened at `open`, as fnmatch reads
    /// it ("]" first, after "!" or "^", is a member; "[:alpha:]" is a class); nil when unclosed.
    private static func closingBracket(_ bytes: [UInt8], from open: Int) -> Int? {
        var index = open + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") { return index }
            if byte == UInt8(ascii: "/") { return nil }
            if byte == UInt8(ascii: "["), index + 1 < bytes.count,
               [UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "=")].contains(bytes[index + 1]) {
                let kind = bytes[index + 1]
                var close = index + 2
                while close + 1 < bytes.count, !(bytes[close] == kind && bytes[close + 1] == UInt8(ascii: "]")) { close += 1 }
                guard close + 1 < bytes.count else { return nil }
                index = close + 2
                continue
            }
            index += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        return nil
    }

    /// Whether the pattern matches an entry: `name` its name, `relative` its path from the root
    /// (asked for only by an anchored pattern), `isFolder` whether it is a folder.
    func matches(name: [UInt8], relative: () -> [UInt8], isFolder: Bool) -> Bool {
        if foldersOnly && !isFolder { return false }
        return anchored ? Self.fnmatch(glob, relative(), pathname: true, ascii: isASCII)
            : Self.fnmatch(glob, name, pathname: false, ascii: isASCII)
    }

    /// fnmatch(3) of `subject` against `glob`: bytes as they are when both are ASCII (the C
    /// locale and a UTF-8 one agree there, and the byte matcher is four times as fast), else
    /// in the C.UTF-8 locale, so "?" is one character of a UTF-8 name (glibc still matches a
    /// name that is not UTF-8, byte by byte).
    private static func fnmatch(_ glob: [CChar], _ subject: [UInt8], pathname: Bool, ascii: Bool) -> Bool {
        let flags = pathname ? FNM_PATHNAME : 0
        let locale = !ascii || !subject.allSatisfy({ $0 < 0x80 }) ? utf8Locale : nil
        // Terminated on the stack: a walk asks this of every entry it lists.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: subject.count + 1) { terminated in
            for (index, byte) in subject.enumerated() { terminated[index] = CChar(bitPattern: byte) }
            terminated[subject.count] = 0
            guard let locale else { return Glibc.fnmatch(glob, terminated.baseAddress, flags) == 0 }
            let previous = uselocale(locale)
            defer { uselocale(previous) }
            return Glibc.fnmatch(glob, terminated.baseAddress, flags) == 0
        }
    }
}

/// The C.UTF-8 locale, made once; nil where the C library has none (then bytes are matched).
/// Never changed or freed after it is made, so sharing it between threads is safe.
nonisolated(unsafe) private let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK | LC_COLLATE_MASK, "C.UTF-8", nil)

/// A `[library] ignore` pattern photod does not take, and why.
public struct IgnorePatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    public let reason: String

    public var description: String { "pattern \"\(pattern)\" \(reason)" }
}
