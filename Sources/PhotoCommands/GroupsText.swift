#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// What `photoctl groups` shows beside the names: the LATEST column, and the hint about groups
/// that differ only in case.
enum GroupsText {
    /// LATEST as people read it, saying what kind of time it is: "2021-06-05 14:03:07 (taken)",
    /// the camera's clock as recorded (with its offset when the file has one), or
    /// "2021-06-05 16:03:07 (file)", the file's modification time in local time.
    struct Latest {
        /// The zone file times are shown in; nil: the system's (`TZ` respected).
        private let timeZone: TimeZone?

        /// A formatter for `timeZone` (the system's by default).
        init(timeZone: TimeZone? = nil) {
            self.timeZone = timeZone
        }

        /// The cell for `group`; "-" for an empty group's missing time, the daemon's text as it
        /// is when it does not say which time it is (an older photod).
        func text(_ group: Group) -> String {
            guard let latest = group.latest else { return "-" }
            switch group.latestSource {
            case .taken:
                return Self.spaced(latest) + " (taken)"
            case .modified:
                return (HumanFormat.instant(latest).flatMap { WallClock($0, in: timeZone)?.text } ?? latest) + " (file)"
            case nil:
                return latest
            }
        }

        /// "2021-06-05T14:03:07" with a space for the "T", as `ls` and `journalctl` write times.
        private static func spaced(_ time: String) -> String {
            // Printable ASCII, as photod sends it, is a character a byte: no grapheme breaking
            // (which took 13% of `photoctl groups`' instructions for its 51 times).
            if time.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                let bytes = Array(time.utf8)
                guard bytes.count > 10, bytes[10] == UInt8(ascii: "T") else { return time }
                return String(decoding: bytes[..<10], as: UTF8.self) + " " + String(decoding: bytes[11...], as: UTF8.self)
            }
            let characters = Array(time)
            guard characters.count > 10, characters[10] == "T" else { return time }
            return String(characters[..<10]) + " " + String(characters[11...])
        }
    }

    /// The fields `groups --format tsv` prints, named as in `--json`'s groups.
    static let tsvNames = ["name", "count", "fallback", "latest", "latestSource"]

    /// The groups as tab-separated values, the wire's values unescaped but for `TSV`'s escapes.
    static func tsv(_ groups: [Group], header: Bool) -> String {
        let rows = groups.map { group -> [TSV.Value?] in
            let latest: TSV.Value? = group.latest.map { .text($0) }
            let source: TSV.Value? = group.latestSource.map { .text($0.rawValue) }
            return [.text(group.name), .text(String(group.count)), .text(String(group.fallback)), latest, source]
        }
        return TSV.text(names: tsvNames, rows: rows, header: header)
    }

    /// How many sets of names the hint lists before it counts the rest.
    static let hintedSets = 5

    /// Names of description groups that are one group but for case ("Beach", "beach"), each set
    /// in the order the list has them; the sets ordered by their first name. The fallback
    /// group never counts: it is apart from a description that reads like its name, whatever
    /// the case setting. Only possible while `case_insensitive` is off, so finding any says so.
    static func caseVariants(_ groups: [Group]) -> [[String]] {
        var byFolded: [String: [String]] = [:]
        for group in groups where !group.fallback {
            byFolded[group.name.lowercased(), default: []].append(group.name)
        }
        return byFolded.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
    }

    /// The hint `groups` prints on standard error when some groups differ only in case, as
    /// systemd's tools print theirs, so the table on standard output stays as it is; nil when none do.
    static func caseHint(_ sets: [[String]], config: String) -> String? {
        guard !sets.isEmpty else { return nil }
        var listed = sets.prefix(hintedSets).map(quotedList).joined(separator: "; ")
        if sets.count > hintedSets { listed += "; and \(sets.count - hintedSets) more" }
        return """
            Hint: these groups differ only in case: \(listed).
            To make each of them one group, set case_insensitive = true in the [groups] section of \(config) \
            and restart photod.
            """
    }

    /// "\"A\" and \"B\"", or "\"A\", \"B\" and \"C\"".
    private static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " and " + last
    }
}
