import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// The fallback group beside a group of the same name: found by key, flagged in changes.
@Suite struct StoreFallbackGroupTests {
    /// One photo without a description and one described "Other", both shown as "Other".
    private func twoOthers(_ store: Store) async throws -> (fallback: String, literal: String, change: CommittedChange) {
        var batch = WriteBatch()
        batch.inserts = [
            WriteBatch.Insert(path: PathBytes("/lib/none.jpg"), stamp: stamp(1),
                              content: content(StoredGroup.fallbackKey, spelling: "Other")),
            insert("/lib/other.jpg", 2, "Other"),
        ]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let change = try #require(batchChange)
        let byPath = Dictionary(uniqueKeysWithValues: try await store.read { try $0.allAssets() }.map {
            ($0.path.description, $0.id)
        })
        return (try #require(byPath["/lib/none.jpg"]), try #require(byPath["/lib/other.jpg"]), change)
    }

    @Test func theFallbackGroupIsFlaggedAndFirstInAChange() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let (fallback, literal, created) = try await twoOthers(store)
        #expect(created.groupsChanged == ["Other", "Other"], "two groups of one name")
        #expect(created.fallbackChanged == true)
        #expect(created.fallbackRemoved == nil)
        await #expect(try store.read { try $0.groups() }.map(\.key).sorted() == [StoredGroup.fallbackKey, "Other"])

        var onlyLiteral = WriteBatch()
        onlyLiteral.removals = [literal]
        let onlyLiteralChange = try await store.write { [onlyLiteral] in try $0.apply(onlyLiteral) }
        let literalGone = try #require(onlyLiteralChange)
        #expect(literalGone.groupsRemoved == ["Other"])
        #expect(literalGone.fallbackRemoved == nil, "the photos described Other went, not the fallback group")
        #expect(literalGone.fallbackChanged == nil)

        var onlyFallback = WriteBatch()
        onlyFallback.removals = [fallback]
        let onlyFallbackChange = try await store.write { [onlyFallback] in try $0.apply(onlyFallback) }
        let fallbackGone = try #require(onlyFallbackChange)
        #expect(fallbackGone.groupsRemoved == ["Other"])
        #expect(fallbackGone.fallbackRemoved == true)

        // The flags survive the change log, so a subscriber resuming with since hears them too.
        let logged = try await store.read { try $0.changes(after: 0) }
        #expect(logged.map(\.fallbackChanged) == [true, nil, nil])
        #expect(logged.map(\.fallbackRemoved) == [nil, nil, true])
        await store.close()
    }

    @Test func groupsAreFoundByKeyNotByTheirSharedName() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        _ = try await twoOthers(store)
        await #expect(try store.read { try $0.hasGroup(key: "Other") })
        await #expect(try store.read { try $0.hasGroup(key: StoredGroup.fallbackKey) })
        await #expect(try !store.read { try $0.hasGroup(key: "other") })
        await #expect(try !store.read { try $0.hasGroup(key: "Beach") })
        await store.close()
    }

    @Test func forgettingSomeStampsLeavesTheOthersAlone() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let (fallback, literal, _) = try await twoOthers(store)
        try await store.write { try $0.forgetReadStamps(ids: [literal, "no-such-id"]) }
        let stamps = Dictionary(uniqueKeysWithValues: try await store.read { try $0.allAssets() }.map { ($0.id, $0.stamp) })
        #expect(stamps[literal]?.sidecar == -1, "read again at the next reconcile")
        #expect(stamps[fallback] == stamp(1))
        try await store.write { try $0.forgetReadStamps(ids: []) }
        await store.close()
    }
}
