import FileSystem
import Store
import Testing
@testable import PhotoDaemon

/// What a limited app sees of committed changes, without I/O.
@Suite struct VisibleChangeFilterTests {
    static func at(_ id: String, _ key: String) -> AssetMembership {
        AssetMembership(id: id, groupKey: key, groupName: key.capitalized)
    }

    /// Sees group "beach" and the single asset h1 of "hike".
    static func filter() -> VisibleChangeFilter {
        VisibleChangeFilter(
            selection: StoreSelection(groupKeys: ["beach"], ids: ["h1"]),
            visible: [at("b1", "beach"), at("b2", "beach"), at("h1", "hike")])
    }

    @Test func hiddenActivityIsNotSeenAtAll() {
        var filter = Self.filter()
        let change = CommittedChange(token: 7, inserted: ["h2", "s1"], removed: ["h9"], updated: ["h3"],
                                     moved: [MovedAsset(id: "h3", from: PathBytes([1]), to: PathBytes([2]))],
                                     groupsChanged: ["Hike", "Secret"], groupsRemoved: ["Gone"])
        let current = ["h2": Self.at("h2", "hike"), "s1": Self.at("s1", "secret"), "h3": Self.at("h3", "hike")]
        #expect(filter.filter(change, current: current) == nil)
        #expect(filter.visibleCount == 3)
    }

    @Test func visibleInsertsRemovalsAndMovesPassWithTheirGroupsRecomputed() {
        var filter = Self.filter()
        let change = CommittedChange(token: 8, inserted: ["b3", "h2"], removed: ["h1", "x"],
                                     moved: [MovedAsset(id: "b1", from: PathBytes([1]), to: PathBytes([2])), MovedAsset(id: "h5", from: PathBytes([3]), to: PathBytes([4]))],
                                     groupsChanged: ["Beach", "Hike"])
        let seen = filter.filter(change, current: ["b3": Self.at("b3", "beach"), "h2": Self.at("h2", "hike")])
        #expect(seen == CommittedChange(token: 8, inserted: ["b3"], removed: ["h1"],
                                        moved: [MovedAsset(id: "b1", from: PathBytes([1]), to: PathBytes([2]))],
                                        groupsChanged: ["Beach"], groupsRemoved: ["Hike"]))
        #expect(filter.visibleCount == 3)
    }

    @Test func anUpdateThatMovesAnAssetAcrossTheSelectionEdgeIsAnInsertOrARemoval() {
        var filter = Self.filter()
        // b2's description now files it under hike (hidden); h7 is re-filed into beach.
        let seen = filter.filter(CommittedChange(token: 9, updated: ["b2", "h7", "b1"]),
                                 current: ["b2": Self.at("b2", "hike"), "h7": Self.at("h7", "beach"), "b1": Self.at("b1", "beach")])
        #expect(seen?.inserted == ["h7"])
        #expect(seen?.removed == ["b2"])
        #expect(seen?.updated == ["b1"])
        #expect(seen?.groupsChanged == ["Beach"])
        // A later removal of b2 is hidden now.
        #expect(filter.filter(CommittedChange(token: 10, removed: ["b2"]), current: [:]) == nil)
    }

    @Test func aChangedSelectionIsToldAsWhatAppearedAndDisappeared() {
        var filter = Self.filter()
        let delta = filter.reselect(StoreSelection(groupKeys: ["hike"], ids: []),
                                    visible: [Self.at("h1", "hike"), Self.at("h2", "hike")], token: 11)
        #expect(delta == CommittedChange(token: 11, inserted: ["h2"], removed: ["b1", "b2"],
                                         groupsChanged: ["Hike"], groupsRemoved: ["Beach"]))
        // The same selection again changes nothing.
        #expect(filter.reselect(StoreSelection(groupKeys: ["hike"], ids: []),
                                visible: [Self.at("h1", "hike"), Self.at("h2", "hike")], token: 12) == nil)
    }

    @Test func anInsertOfAnAlreadyKnownAssetIsNotCountedTwice() {
        var filter = Self.filter()
        let seen = filter.filter(CommittedChange(token: 5, inserted: ["b1"]), current: ["b1": Self.at("b1", "beach")])
        #expect(seen?.inserted == ["b1"])
        #expect(filter.visibleCount == 3)
        let gone = filter.filter(CommittedChange(token: 6, removed: ["b1", "b2"]), current: [:])
        #expect(gone?.groupsRemoved == ["Beach"], "both beach photos gone: the group is empty for the app")
    }
}
