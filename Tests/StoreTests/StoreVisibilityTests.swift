import Foundation
import PhotoTestSupport
import Store
import Testing

/// What a selection sees, computed from the selection alone (a limited app cannot time hidden rows).
@Suite struct StoreVisibilityTests {
    @Test func theVisibleSetHoldsExactlyWhatTheSelectionShows() async throws {
        let dir = try TemporaryDirectory()
        let (store, ids) = try await StoreSelectionTests.store(dir)
        let h1 = try #require(ids["/lib/h1.jpg"])
        let selection = StoreSelection(groupKeys: ["beach", "gone"], ids: [h1, "nosuchid"])
        let expected = Set([ids["/lib/b1.jpg"], ids["/lib/b2.jpg"], h1].compactMap { $0 })
        let visible = try #require(try await store.read(as: .selection(selection)) { try $0.visibleSet() })
        #expect(visible.ids == expected)
        #expect(visible.groups == [VisibleGroup(key: "beach", name: "Beach"), VisibleGroup(key: "hike", name: "Hike")])
    }

    @Test func aHiddenGroupOrIdLooksExactlyLikeOneThatNeverExisted() async throws {
        let withSecret = try TemporaryDirectory()
        let (store, ids) = try await StoreSelectionTests.store(withSecret)
        let secret = try #require(ids["/lib/s1.jpg"])
        let selection = StoreSelection(groupKeys: ["beach"], ids: [])
        let visible = try #require(try await store.read(as: .selection(selection)) { try $0.visibleSet() })
        #expect(!visible.ids.contains(secret))
        #expect(!visible.contains(groupKey: "secret"))
        #expect(!visible.contains(groupKey: "nothing"))
        #expect(visible.contains(groupKey: "beach"))
        #expect(!visible.contains(groupKey: "Beach"), "by key only: a display name can be shared")

        // The same selection over a library without the secret photo computes the same set,
        // so every later step of a limited lookup is the same whether the secret exists or not.
        var batch = WriteBatch()
        batch.removals.append(secret)
        _ = try await store.write { [batch] in try $0.apply(batch) }
        await #expect(try store.read(as: .selection(selection)) { try $0.visibleSet() } == visible)
    }
}
