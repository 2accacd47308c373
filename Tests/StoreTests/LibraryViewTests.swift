import FileSystem
import PhotoTestSupport
import Store
import Testing

/// `LibraryView`: each lookup a limited caller can make answers a hidden photo or group exactly
/// as one that does not exist, and the owner's view answers both as they are.
@Suite struct LibraryViewTests {
    private static let limited = LibraryAccess.selection(StoreSelection(groupKeys: ["beach"], ids: []))

    @Test func aHiddenIdOrPathIsMissingLikeAnUnknownOne() async throws {
        let dir = try TemporaryDirectory()
        let (store, ids) = try await StoreSelectionTests.store(dir)
        let beach = try #require(ids["/lib/b1.jpg"])
        let secret = try #require(ids["/lib/s1.jpg"])
        let asked = [beach, secret, "0000000000000000"]
        await #expect(try store.read(as: Self.limited) { try $0.assets(ids: asked) }.map(\.id) == [beach])
        await #expect(try store.read(as: .everything) { try $0.assets(ids: asked) }.map(\.id).sorted() == [beach, secret].sorted())
        let paths = ["/lib/b1.jpg", "/lib/s1.jpg", "/lib/none.jpg"].map { PathBytes($0) }
        await #expect(try store.read(as: Self.limited) { try $0.assets(paths: paths) }.map(\.id) == [beach])
        await #expect(try store.read(as: .everything) { try $0.assets(paths: paths) }.count == 2)
    }

    @Test func aHiddenGroupIsNeitherFoundNorSuggestedNorCompleted() async throws {
        let dir = try TemporaryDirectory()
        let (store, ids) = try await StoreSelectionTests.store(dir)
        await #expect(try store.read(as: Self.limited) { try $0.firstGroup(among: ["secret", "beach"]) } == "beach")
        await #expect(try store.read(as: .everything) { try $0.firstGroup(among: ["secret", "beach"]) } == "secret")
        await #expect(try store.read(as: Self.limited) { try $0.groupNames() } == ["Beach"])
        let completed = try await store.read(as: Self.limited) {
            try $0.groupNames(withPrefix: "", excluding: "hike", maximumBytes: 100, limit: 10)
        }
        #expect(completed.names == ["Beach"] && !completed.excludedSeen)
        let owners = try await store.read(as: .everything) {
            try $0.groupNames(withPrefix: "", excluding: "hike", maximumBytes: 100, limit: 10)
        }
        #expect(owners.names == ["Beach", "Secret"] && owners.excludedSeen)
        let beachIDs = [ids["/lib/b1.jpg"], ids["/lib/b2.jpg"]].compactMap { $0 }.sorted()
        await #expect(try store.read(as: Self.limited) { try $0.assetIDs(withPrefix: "", limit: 10) } == beachIDs)
    }
}
