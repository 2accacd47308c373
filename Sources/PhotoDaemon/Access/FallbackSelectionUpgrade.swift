#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Store

/// Keeps limited selections meaning what they meant when the fallback group gets a key of its own.
///
/// Before, the fallback group was filed under its name, so photos described "Other" shared it,
/// and a selection naming "Other" showed both. Now they are two groups, and a name in a
/// selection is the group of that description only; a stored selection that named the fallback
/// gets the fallback group added beside the name, so the app sees exactly the photos it saw.
/// Adding it twice changes nothing, so an upgrade cut short is simply run again.
struct FallbackSelectionUpgrade {
    let store: Store
    let rules: GroupingRules
    let logger: Logger

    func run() async throws {
        let decoder = JSONDecoder()
        var upgraded = 0
        for stored in try await store.read({ try $0.apps() }) {
            // A record this version cannot read is left to the authorizer, which ignores it.
            guard let decoded = try? decoder.decode(AppAuthorization.self, from: stored.record),
                  var record = Self.upgraded(decoded, rules: rules) else { continue }
            // The row's key is the truth, as the authorizer reads it.
            record.uid = stored.uid
            record.app = stored.id
            try await store.write { [record] in try $0.saveApp(try Authorizer.stored(record)) }
            upgraded += 1
        }
        if upgraded > 0 {
            logger.notice("""
                the fallback group is now apart from photos described \"\(rules.fallbackName)\": \(upgraded) limited \
                selections that named it keep both
                """)
        }
    }

    /// The record with the fallback group selected when one of its group names named it; nil
    /// when nothing changes.
    static func upgraded(_ record: AppAuthorization, rules: GroupingRules) -> AppAuthorization? {
        guard record.fallback != true, record.groups.contains(where: rules.namesFallback) else { return nil }
        var upgraded = record
        upgraded.fallback = true
        return upgraded
    }
}
