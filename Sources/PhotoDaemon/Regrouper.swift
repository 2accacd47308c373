import Logging
import Metadata
import NIOPosix
import Store

/// Re-files every asset when the grouping rules differ from the ones the index was built with,
/// and has every file read again when the description sources differ.
struct Regrouper {
    let store: Store
    let rules: GroupingRules
    let sources: [Metadata.DescriptionSource]
    let pool: NIOThreadPool
    let logger: Logger

    private static let settingKey = "grouping"
    private static let sourcesKey = "description_sources"

    /// The stored description may come from another source now: only reading the files again tells.
    func rereadIfSourcesChanged() async throws {
        let store = self.store
        let fingerprint = DescriptionSources.fingerprint(sources)
        let changed = try await pool.runIfActive { () throws -> Bool in
            let previous = try store.setting(Self.sourcesKey)
            guard previous != fingerprint else { return false }
            // A new index has nothing to read again; an existing one built before this setting
            // was already marked by its schema migration.
            if previous != nil { try store.forgetReadStamps() }
            try store.setSetting(Self.sourcesKey, to: fingerprint)
            return previous != nil
        }
        if changed {
            logger.notice("description sources changed to \(sources.map(\.rawValue).joined(separator: ", ")): every file will be read again")
        }
    }

    func regroupIfRulesChanged() async throws {
        let store = self.store
        let rules = self.rules
        let changed = try await pool.runIfActive { () throws -> Int? in
            let previous = try store.setting(Self.settingKey)
            guard previous != rules.fingerprint else { return nil }
            var batch = WriteBatch()
            for asset in try store.allAssets() {
                let group = rules.assign(text: asset.content.description)
                guard group.key != asset.content.groupKey || group.spelling != asset.content.groupSpelling else { continue }
                var content = asset.content
                content.groupKey = group.key
                content.groupSpelling = group.spelling
                batch.updates.append(WriteBatch.Update(id: asset.id, path: asset.path, stamp: asset.stamp, content: content))
            }
            _ = try store.apply(batch)
            try store.setSetting(Self.settingKey, to: rules.fingerprint)
            return previous == nil ? nil : batch.count
        }
        if let changed {
            logger.notice("grouping rules changed since the index was built: re-filed \(changed) assets")
        }
    }
}
