/// The rules that file an asset into a group (DESIGN.md "Groups").
public struct GroupingRules: Sendable, Equatable {
    /// Name of the group for assets without a usable description.
    public var fallbackName: String
    /// When true, "Beach" and "beach" are one group, shown in its most common spelling.
    public var caseInsensitive: Bool
    /// Camera default descriptions that count as no description.
    public var boilerplate: [String]

    private var boilerplateKeys: Set<String>

    /// The defaults of `config/photod.toml`.
    public static let defaultBoilerplate = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KODAK Digital Still Camera", "default",
    ]

    /// Creates rules; boilerplate entries are normalized and compared case-insensitively.
    public init(fallbackName: String = "Other", caseInsensitive: Bool = false,
                boilerplate: [String] = GroupingRules.defaultBoilerplate) {
        self.fallbackName = fallbackName
        self.caseInsensitive = caseInsensitive
        self.boilerplate = boilerplate
        boilerplateKeys = Set(boilerplate.map { DescriptionText.normalize($0).lowercased() })
    }

    /// Where an asset with this description (raw bytes, nil when none) is filed.
    public func assign(description: [UInt8]?) -> GroupAssignment {
        assign(text: description.map(DescriptionText.decode))
    }

    /// Whether a decoded description names a group: not empty after normalization, not camera boilerplate.
    public func isUsable(_ text: String) -> Bool {
        let normalized = DescriptionText.normalize(text)
        return !normalized.isEmpty && !boilerplateKeys.contains(normalized.lowercased())
    }

    /// Where an asset with this decoded description is filed.
    public func assign(text: String?) -> GroupAssignment {
        guard let text else { return fallback }
        let normalized = DescriptionText.normalize(text)
        let folded = normalized.lowercased()
        if normalized.isEmpty || boilerplateKeys.contains(folded) { return fallback }
        return GroupAssignment(key: caseInsensitive ? folded : normalized, spelling: normalized)
    }

    /// The fallback group's assignment.
    public var fallback: GroupAssignment {
        GroupAssignment(key: fallbackKey, spelling: fallbackName)
    }

    /// The key of the fallback group.
    public var fallbackKey: String { caseInsensitive ? fallbackName.lowercased() : fallbackName }

    /// The key a user-typed group name refers to.
    public func key(forName name: String) -> String {
        let normalized = DescriptionText.normalize(name)
        return caseInsensitive ? normalized.lowercased() : normalized
    }

    /// A stable text form of the rules; the index is regrouped when it changes.
    public var fingerprint: String {
        "v1|fallback=\(fallbackName)|ci=\(caseInsensitive)|boilerplate=\(boilerplateFingerprint)"
    }

    /// A stable text form of the boilerplate list alone, which decides which description is usable.
    public var boilerplateFingerprint: String {
        boilerplateKeys.sorted().joined(separator: "\u{1F}")
    }

    /// Rules are equal when they file every description the same way.
    public static func == (lhs: GroupingRules, rhs: GroupingRules) -> Bool {
        lhs.fallbackName == rhs.fallbackName && lhs.caseInsensitive == rhs.caseInsensitive
            && lhs.boilerplateKeys == rhs.boilerplateKeys
    }
}

/// A group key and this asset's spelling of the group's name.
public struct GroupAssignment: Sendable, Equatable {
    public var key: String
    public var spelling: String
}
