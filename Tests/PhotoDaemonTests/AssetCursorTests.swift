import FileSystem
import Store
import Testing
@testable import PhotoDaemon

@Suite struct AssetCursorTests {
    @Test(arguments: [
        (StoreSort.taken, StorePosition(value: .integer(-5), id: "abc")),
        (StoreSort.modified, StorePosition(value: .integer(1_700_000_000_000_000_000), id: "x")),
        (StoreSort.path, StorePosition(value: .path(PathBytes([0x2F, 0xFF, 0x00, 0x41])), id: "p")),
    ])
    func cursorsRoundTrip(sort: StoreSort, position: StorePosition) {
        let text = AssetCursor(sort: sort, groupKey: "G", position: position).encoded
        #expect(AssetCursor.decode(text, sort: sort, groupKey: "G") == position)
        #expect(!text.contains("/") && !text.contains("+") && !text.contains("="))
    }

    @Test func aCursorIsRefusedForAnotherListing() {
        let text = AssetCursor(sort: .taken, groupKey: "G", position: StorePosition(value: .integer(1), id: "a")).encoded
        #expect(AssetCursor.decode(text, sort: .path, groupKey: "G") == nil)
        #expect(AssetCursor.decode(text, sort: .taken, groupKey: nil) == nil)
        #expect(AssetCursor.decode(text, sort: .taken, groupKey: "H") == nil)
    }

    @Test func aReversedCursorContinuesOnlyAReversedListing() {
        let position = StorePosition(value: .integer(7), id: "a")
        let reversed = AssetCursor(sort: .taken, reverse: true, groupKey: nil, position: position).encoded
        #expect(AssetCursor.decode(reversed, sort: .taken, reverse: true, groupKey: nil) == position)
        #expect(AssetCursor.decode(reversed, sort: .taken, groupKey: nil) == nil)
        let forward = AssetCursor(sort: .taken, groupKey: nil, position: position).encoded
        #expect(AssetCursor.decode(forward, sort: .taken, reverse: true, groupKey: nil) == nil)
        // A cursor made before reverse existed has no such field: it continues the forward listing.
        let older = "eyJ2ZXJzaW9uIjoxLCJzb3J0IjoidGFrZW4iLCJpbnRlZ2VyIjo3LCJpZCI6ImEifQ"
        #expect(AssetCursor.decode(older, sort: .taken, groupKey: nil) == position)
    }

    @Test(arguments: ["", "garbage", "!!!", "e30", "eyJ2ZXJzaW9uIjoyfQ"])
    func garbageIsRefused(text: String) {
        #expect(AssetCursor.decode(text, sort: .taken, groupKey: nil) == nil)
    }
}

@Suite struct ImageExtensionTests {
    @Test func namesThatMarkAnImage() {
        #expect(AssetReader.hasImageExtension(PathBytes("/a/b/IMG_1.JPG")))
        #expect(AssetReader.hasImageExtension(PathBytes("/a/b/x.nef")))
        #expect(!AssetReader.hasImageExtension(PathBytes("/a/b/notes.txt")))
        #expect(!AssetReader.hasImageExtension(PathBytes("/a/b.jpg/noext")))
        #expect(!AssetReader.hasImageExtension(PathBytes("/a/b/jpg")))
    }
}
