import Logging
import Metadata
import Store

/// Re-files every asset when the grouping rules differ from the ones the index was built with,
/// and has files read again when the description sources or the boilerplate differ.
struct Regrouper {
    let store: Store
    let rules: GroupingRules
    let sources: [Metadata.DescriptionSource]
    let logger: Logger

    private static let settingKey = "grouping"
    private static let sourcesKey = "description_sources"
    private static let boilerplateMarker = "|boilerplate="

    /// The stored description may come from another source now: only reading the files again tells.
    ///
    /// The boilerplate list counts too: it decides whether the first source's description is
    /// usable or the next one's is taken, and the index keeps only the one chosen, so re-filing
    /// by the stored description cannot undo that choice. When the list only grew (the upgrade
    /// to a longer built-in list, or entries added to the config), only the photos whose stored
    /// description became boilerplate can choose differently, and only they are read again.
    func rereadIfSourcesChanged() async throws {
        let fingerprint = descriptionChoiceFingerprint
        let previous = try await store.read { try $0.setting(Self.sourcesKey) }
        guard previous != fingerprint else { return }
        // A new index has nothing to read again; an existing one built before this setting
        // was already marked by its schema migration.
        if let previous {
            if let added = Self.boilerplateAdded(from: previous, to: fingerprint) {
                let ids = try await store.read { try $0.allAssets() }.filter { asset in
                    asset.content.description.map { added.contains(Self.boilerplateKey($0)) } ?? false
                }.map(\.id)
                try await store.write { try $0.forgetReadStamps(ids: ids) }
                logger.notice("""
                    camera boilerplate added: \(ids.count) files whose description is now boilerplate will be read \
                    again for their next usable description
                    """)
            } else {
                try await store.write { try $0.forgetReadStamps() }
                logger.notice("""
                    description sources or boilerplate changed (sources \(sources.map(\.rawValue).joined(separator: ", "))): \
                    every file will be read again
                    """)
            }
        }
        try await store.write { try $0.setSetting(Self.sourcesKey, to: fingerprint) }
    }

    /// The sources in order and, when it is not the first built-in one, the boilerplate list;
    /// that list leaves the fingerprint as indexes before it counted have it stored.
    private var descriptionChoiceFingerprint: String {
        let sourcesPart = DescriptionSources.fingerprint(sources)
        let firstList = Self.firstBuiltInBoilerplate.boilerplateFingerprint
        guard rules.boilerplateFingerprint != firstList else { return sourcesPart }
        return sourcesPart + Self.boilerplateMarker + rules.boilerplateFingerprint
    }

    private static let firstBuiltInBoilerplate = GroupingRules(boilerplate: GroupingRules.firstDefaultBoilerplate)

    /// The boilerplate keys `current` adds to `previous` when the sources are the same and no
    /// entry was dropped (nil otherwise: then any photo may choose differently).
    static func boilerplateAdded(from previous: String, to current: String) -> Set<String>? {
        let (oldSources, oldKeys) = parts(previous)
        let (newSources, newKeys) = parts(current)
        guard oldSources == newSources, oldKeys.isSubset(of: newKeys) else { return nil }
        return newKeys.subtracting(oldKeys)
    }

    /// A description-choice fingerprint split into its sources part and its boilerplate keys.
    private static func parts(_ fingerprint: String) -> (sources: Substring, keys: Set<String>) {
        guard let marker = fingerprint.firstRange(of: boilerplateMarker) else {
            return (fingerprint[...], keys(firstBuiltInBoilerplate.boilerplateFingerprint[...]))
        }
        return (fingerprint[..<marker.lowerBound], keys(fingerprint[marker.upperBound...]))
    }

    private static func keys(_ list: Substring) -> Set<String> {
        Set(list.split(separator: Character("\u{1F}")).map(String.init))
    }

    /// A description as the boilerplate list compares it.
    private static func boilerplateKey(_ description: String) -> String {
        DescriptionText.normalize(description).lowercased()
    }

    func regroupIfRulesChanged() async throws {
        let previous = try await store.read { try $0.setting(Self.settingKey) }
        guard previous != rules.fingerprint else { return }
        if let previous, GroupingRules.fallbackSharedItsName(fingerprint: previous) {
            // Before the regroup: should it be cut short, the next start does both again.
            try await FallbackSelectionUpgrade(store: store, rules: rules, logger: logger).run()
        }
        var batch = WriteBatch()
        for asset in try await store.read({ try $0.allAssets() }) {
            let group = rules.assign(text: asset.content.description)
            guard group.key != asset.content.groupKey || group.spelling != asset.content.groupSpelling else { continue }
            var content = asset.content
            content.groupKey = group.key
            content.groupSpelling = group.spelling
            batch.updates.append(WriteBatch.Update(id: asset.id, path: asset.path, stamp: asset.stamp, content: content))
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        try await store.write { try $0.setSetting(Self.settingKey, to: rules.fingerprint) }
        if previous != nil {
            logger.notice("grouping rules changed since the index was built: re-filed \(batch.count) assets")
        }
    }
}
