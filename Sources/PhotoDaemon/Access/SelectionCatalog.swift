import PhotoAPI
import Store

/// Checks a limited selection against the library before the owner's decision is kept: a
/// group or asset id that matches nothing would be a selection that silently shows nothing.
struct SelectionCatalog: Sendable {
    /// Why a selection was refused: the first name or id not in the library, and the nearest ones.
    enum Problem: Sendable, Equatable {
        case noSuchGroup(String, closest: [String])
        case noSuchAsset(String, closest: [String])
    }

    /// A selection checked against the library: description groups by name, and whether the
    /// fallback group is in it (asked for by flag, or by its name while no description has it).
    enum Outcome: Sendable, Equatable {
        case selection(groups: [String], fallback: Bool)
        case problem(Problem)
    }

    /// How many near names or ids a refusal lists at most.
    static let maximumSuggestions = 5

    let store: Store
    let rules: GroupingRules

    /// The selection as it will be kept, or the first group or asset the library does not have.
    func resolve(groups: [String], fallback: Bool, assets: [String]) async throws -> Outcome {
        var names: [String] = []
        var withFallback = false
        if fallback {
            guard try await store.read({ try $0.hasGroup(key: rules.fallbackKey) }) else {
                return .problem(.noSuchGroup(rules.fallbackName, closest: []))
            }
            withFallback = true
        }
        for name in groups {
            guard let found = try await store.read(as: .everything, { [rules] in
                try $0.firstGroup(among: rules.candidateKeys(forName: name, fallback: nil))
            }) else {
                // Two groups may share a name (the fallback group and a description): offer it once.
                let all = Set(try await store.read { try $0.groups() }.map(\.name))
                return .problem(.noSuchGroup(name, closest: Self.closest(to: name, among: Array(all))))
            }
            if found == rules.fallbackKey { withFallback = true } else { names.append(name) }
        }
        let present = Set(try await store.read { try $0.assets(ids: assets) }.map(\.id))
        for id in assets where !present.contains(id) {
            return .problem(.noSuchAsset(id, closest: try await closestIDs(to: id)))
        }
        return .selection(groups: names, fallback: withFallback)
    }

    /// Ids sharing the longest prefix with `id` (at least four characters: less is chance).
    private func closestIDs(to id: String) async throws -> [String] {
        let characters = Array(id.lowercased().prefix(64))
        var length = characters.count
        while length >= 4 {
            let prefix = String(characters.prefix(length))
            let ids = try await store.read(as: .everything) { try $0.assetIDs(withPrefix: prefix, limit: Self.maximumSuggestions) }
            if !ids.isEmpty { return ids }
            length -= 1
        }
        return []
    }

    /// Names near `name`, nearest first: the same but for case, one inside the other, or a few
    /// letters apart (at most a third of the name; only for names of at most 200 characters,
    /// as the distance costs the product of the lengths).
    static func closest(to name: String, among names: [String]) -> [String] {
        let wanted = name.lowercased()
        let letters = Array(wanted)
        let allowed = max(2, letters.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for candidate in names {
            let other = candidate.lowercased()
            let distance: Int
            if other == wanted {
                distance = 0
            } else if !wanted.isEmpty && !other.isEmpty && (other.contains(wanted) || wanted.contains(other)) {
                distance = 1
            } else {
                let otherLetters = Array(other)
                guard letters.count <= 200, otherLetters.count <= 200,
                      abs(otherLetters.count - letters.count) <= allowed else { continue }
                distance = editDistance(letters, otherLetters)
                guard distance <= allowed else { continue }
            }
            scored.append((distance, candidate))
        }
        return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(maximumSuggestions).map(\.name)
    }

    /// Levenshtein distance, two rows at a time.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
