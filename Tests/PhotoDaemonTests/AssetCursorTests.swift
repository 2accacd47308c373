import Store
import Testing
@testable import PhotoDaemon

@Suite struct AssetCursorTests {
    @Test(arguments: [
        (StoreSort.taken, StorePosition(value: .integer(-5), id: "abc")),
        (StoreSort.modified, StorePosition(value: .integer(1_700_000_000_000_000_000), id: "x")),
        (StoreSort.path, StorePosition(value: .bytes([0x2F, 0xFF, 0x00, 0x41]), id: "p")),
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

    @Test(arguments: ["", "garbage", "!!!", "e30", "eyJ2ZXJzaW9uIjoyfQ"])
    func garbageIsRefused(text: String) {
        #expect(AssetCursor.decode(text, sort: .taken, groupKey: nil) == nil)
    }
}

@Suite struct ImageExtensionTests {
    @Test func namesThatMarkAnImage() {
        #expect(AssetReader.hasImageExtension(Array("/a/b/IMG_1.JPG".utf8)))
        #expect(AssetReader.hasImageExtension(Array("/a/b/x.nef".utf8)))
        #expect(!AssetReader.hasImageExtension(Array("/a/b/notes.txt".utf8)))
        #expect(!AssetReader.hasImageExtension(Array("/a/b.jpg/noext".utf8)))
        #expect(!AssetReader.hasImageExtension(Array("/a/b/jpg".utf8)))
    }
}
