import Logging
import Metadata
import Store

/// Re-files every asset when the grouping rules differ from the ones the index was built with,
/// and has every file read again when the description sources differ.
struct Regrouper {
    let store: Store
    let rules: GroupingRules
    let sources: [Metadata.DescriptionSource]
    let logger: Logger

    private static let settingKey = "grouping"
    private static let sourcesKey = "description_sources"

    /// The stored description may come from another source now: only reading the files again tells.
    ///
    /// The boilerplate list counts too: it decides whether the first source's description is
    /// usable or the next one's is taken, and the index keeps only the one chosen, so re-filing
    /// by the stored description cannot undo that choice.
    func rereadIfSourcesChanged() async throws {
        let fingerprint = descriptionChoiceFingerprint
        let previous = try await store.setting(Self.sourcesKey)
        guard previous != fingerprint else { return }
        // A new index has nothing to read again; an existing one built before this setting
        // was already marked by its schema migration.
        if previous != nil { try await store.forgetReadStamps() }
        try await store.setSetting(Self.sourcesKey, to: fingerprint)
        if previous != nil {
            logger.notice("""
                description sources or boilerplate changed (sources \(sources.map(\.rawValue).joined(separator: ", "))): \
                every file will be read again
                """)
        }
    }

    /// The sources in order and, when it is not the built-in one, the boilerplate list; the
    /// built-in list leaves the fingerprint as indexes before it counted have it stored.
    private var descriptionChoiceFingerprint: String {
        let sourcesPart = DescriptionSources.fingerprint(sources)
        guard rules.boilerplateFingerprint != GroupingRules().boilerplateFingerprint else { return sourcesPart }
        return sourcesPart + "|boilerplate=" + rules.boilerplateFingerprint
    }

    func regroupIfRulesChanged() async throws {
        let previous = try await store.setting(Self.settingKey)
        guard previous != rules.fingerprint else { return }
        var batch = WriteBatch()
        for asset in try await store.allAssets() {
            let group = rules.assign(text: asset.content.description)
            guard group.key != asset.content.groupKey || group.spelling != asset.content.groupSpelling else { continue }
            var content = asset.content
            content.groupKey = group.key
            content.groupSpelling = group.spelling
            batch.updates.append(WriteBatch.Update(id: asset.id, path: asset.path, stamp: asset.stamp, content: content))
        }
        _ = try await store.apply(batch)
        try await store.setSetting(Self.settingKey, to: rules.fingerprint)
        if previous != nil {
            logger.notice("grouping rules changed since the index was built: re-filed \(batch.count) assets")
        }
    }
}
