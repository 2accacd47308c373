import Logging
import NIOPosix
import Store

/// Re-files every asset when the grouping rules differ from the ones the index was built with.
struct Regrouper {
    let store: Store
    let rules: GroupingRules
    let pool: NIOThreadPool
    let logger: Logger

    private static let settingKey = "grouping"

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
