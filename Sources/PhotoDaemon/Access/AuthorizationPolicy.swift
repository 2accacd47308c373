#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the config decides about authorization, above anything the owner decides.
public struct AuthorizationPolicy: Sendable, Equatable {
    /// App ids, or patterns in which `*` stands for any run of characters, that are restricted.
    public var restricted: [String]
    /// How long a request waits for the owner before it is cancelled.
    public var requestTimeout: TimeInterval

    /// A request waits this long by default: long enough for a person to notice and answer.
    public static let defaultRequestTimeout: TimeInterval = 300

    /// Creates a policy; by default nothing is restricted.
    public init(restricted: [String] = [], requestTimeout: TimeInterval = defaultRequestTimeout) {
        self.restricted = restricted
        self.requestTimeout = requestTimeout
    }

    /// Whether an id or pattern in `restricted` matches the whole app id.
    func restricts(_ app: String) -> Bool {
        restricted.contains { Self.glob($0, matches: app) }
    }

    /// Whether `pattern` matches all of `text`. `*` matches any run of characters, slashes
    /// included, because app ids are executable paths as often as reverse-DNS names; nothing
    /// else is special.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var p = 0
        var t = 0
        // Where the last `*` was, and the text position it currently swallows up to, so a
        // mismatch retries with that star taking one more character; only the last star ever
        // backtracks, so the work stays within pattern length × app id length.
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                star = (last.pattern, last.text + 1)
                p = last.pattern + 1
                t = last.text + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
