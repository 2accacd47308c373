import PhotoAPI
import SafeText

/// The prompt's menu of groups to share with an app: numbered entries that each fit the
/// terminal's width, shown a page at a time, and narrowed by text the owner types, so that a
/// library of many groups (or one with a 4,000-character caption) never scrolls the question away.
struct GroupMenu {
    /// What the owner's answer asks for.
    enum Reply: Equatable {
        /// Back to the question before (an empty answer).
        case back
        /// The next page (">").
        case nextPage
        /// Show only the groups whose label holds this text ("" : all again).
        case narrow(String)
        /// These groups: description groups by name, and whether the fallback group is among them.
        case chosen(names: [String], fallback: Bool)
        /// Words that are neither a group nor text any group holds.
        case unknown([String])
    }

    let groups: [Group]
    /// Text the shown groups' labels hold, case ignored; empty: every group.
    private(set) var filter = ""
    /// Where the page shown starts, among the groups the filter keeps.
    private(set) var start = 0

    /// A menu of `groups`, numbered in this order from 1.
    init(_ groups: [Group]) {
        self.groups = groups
    }

    /// The indices of the groups the filter keeps.
    var matching: [Int] {
        guard !filter.isEmpty else { return Array(groups.indices) }
        return groups.indices.filter { Self.holds(GroupLabel.text(groups[$0]), filter) }
    }

    /// The lines of the page that starts at `start`, `size` entries at most: a heading that says
    /// which part of the list it is and how to answer, then one entry a group, escaped, each
    /// cut to `width` columns.
    func page(size: Int, width: Int) -> (heading: String, entries: [String]) {
        let kept = matching
        let shown = kept.dropFirst(start).prefix(max(size, 1))
        let narrowed = filter.isEmpty ? "" : " holding \"\(filter)\""
        let range = shown.isEmpty ? "none" : "\(start + 1)–\(start + shown.count)"
        let more = kept.count > shown.count ? " > shows more." : ""
        let all = filter.isEmpty ? "" : " / shows all again."
        let heading = "Groups\(narrowed): \(range) of \(kept.count).\(more)\(all) Other text shows only the groups "
            + "holding it; numbers or names, comma-separated, choose; empty: back."
        let entries = shown.map { index in
            let group = groups[index]
            let number = "  \(index + 1)) "
            let count = " (\(group.count))"
            let room = width - TerminalWidth.of(number) - TerminalWidth.of(count)
            return number + Ellipsis.fit(SafeText.escaped(GroupLabel.text(group)), width: max(room, 8), at: .end) + count
        }
        return (heading, entries)
    }

    /// What `reply` asks for: a page, a narrower list, or groups by number (as numbered in the
    /// whole list) or label (the fallback group by its label; a bare name that only the
    /// fallback group has is the fallback group, as photod takes it).
    func read(_ reply: String) -> Reply {
        let text = reply.trimmingWhitespace()
        if text.isEmpty { return .back }
        if text == ">" { return .nextPage }
        if text == "/" { return .narrow("") }
        let words = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        var names: [String] = []
        var fallback = false
        var unknown: [String] = []
        for word in words {
            guard let group = group(named: word) else {
                unknown.append(word)
                continue
            }
            if group.fallback { fallback = true } else { names.append(group.name) }
        }
        if unknown.isEmpty { return .chosen(names: names, fallback: fallback) }
        // One word that is not a group: the text to narrow the list to, when any group holds it.
        if words.count == 1, groups.contains(where: { Self.holds(GroupLabel.text($0), text) }) { return .narrow(text) }
        return .unknown(unknown)
    }

    /// Follows a reply that changes the page: the next page (the first after the last), or the
    /// first page of the groups holding `text`.
    mutating func apply(_ reply: Reply, pageSize: Int) {
        switch reply {
        case .nextPage:
            start += max(pageSize, 1)
            if start >= matching.count { start = 0 }
        case .narrow(let text):
            filter = text
            start = 0
        case .back, .chosen, .unknown:
            break
        }
    }

    /// The group `word` names: its number in the list, its label, else its name.
    private func group(named word: String) -> Group? {
        Int(word).flatMap { groups.indices.contains($0 - 1) ? groups[$0 - 1] : nil }
            ?? groups.first(where: { GroupLabel.text($0) == word })
            ?? groups.first(where: { $0.name == word })
    }

    /// Whether `label` holds `text`, case ignored.
    private static func holds(_ label: String, _ text: String) -> Bool {
        label.lowercased().contains(text.lowercased())
    }
}
