import Testing
import ThumbnailCache

@Suite struct ThumbnailSizeTests {
    @Test func boxesAndFolders() {
        #expect(ThumbnailSize.allCases.map(\.pixels) == [128, 256, 512, 1024])
        #expect(ThumbnailSize.allCases.map(\.folderName) == ["normal", "large", "x-large", "xx-large"])
    }

    @Test func exactMatchesOnlyTheFourSquares() {
        #expect(ThumbnailSize.exact(width: 128, height: 128) == .normal)
        #expect(ThumbnailSize.exact(width: 1024, height: 1024) == .xxLarge)
        #expect(ThumbnailSize.exact(width: 256, height: 128) == nil)
        #expect(ThumbnailSize.exact(width: 200, height: 200) == nil)
        #expect(ThumbnailSize.exact(width: 0, height: 0) == nil)
    }

    @Test func smallestCoveringRoundsUp() {
        #expect(ThumbnailSize.smallest(covering: 1) == .normal)
        #expect(ThumbnailSize.smallest(covering: 128) == .normal)
        #expect(ThumbnailSize.smallest(covering: 129) == .large)
        #expect(ThumbnailSize.smallest(covering: 512) == .xLarge)
        #expect(ThumbnailSize.smallest(covering: 1000) == .xxLarge)
        #expect(ThumbnailSize.smallest(covering: 1025) == nil)
        #expect(ThumbnailSize.smallest(covering: 0) == nil)
        #expect(ThumbnailSize.smallest(covering: -5) == nil)
    }
}
