/// The Swift names of what an interface declares, by rule, with exceptions from a names file.
///
/// The IDL names named types and errors, but not a method's input or output nor an enum or
/// struct written inline in a field; and two interfaces may use one name (`OwnerOnly`). The
/// rules name those (`ListAssetsParameters`, `GroupLatestSource`); the names file keeps the
/// Swift names the code already uses where a rule would give another, so the IDL itself stays
/// free of any one language's names.
struct SwiftNames: Sendable {
    private var exceptions: [String: String]

    /// Reads a names file: one `path SwiftName` a line, `#` comments. A path is the interface
    /// and a member (`io.photod.Library.Group`), then a field (`.latestSource`), or for a method
    /// `.in` or `.out` and maybe a field (`io.photod.Library.Status.out.state`).
    init(parsing text: String) throws(CodegenError) {
        exceptions = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace)
            guard !words.isEmpty else { continue }
            guard words.count == 2, exceptions[String(words[0])] == nil else {
                throw CodegenError("names file, line \(number + 1): expected one \"path SwiftName\", each path once")
            }
            exceptions[String(words[0])] = String(words[1])
        }
    }

    /// The Swift name for `path`, else `rule`.
    func name(_ path: String, else rule: @autoclosure () -> String) -> String {
        exceptions[path] ?? rule()
    }

    /// The paths the names file gives, to tell which it gave in vain.
    var paths: Set<String> { Set(exceptions.keys) }
}

extension String {
    /// The text with its first letter upper-cased (`latestSource` → `LatestSource`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }

    /// The text with its first letter lower-cased (`OwnerOnly` → `ownerOnly`).
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
