import FileSystem
import Testing
@testable import Store

/// Folding and query parsing: what "case- and accent-insensitive" means, one rule for the index and the query.
@Suite struct SearchTextTests {
    @Test(arguments: [
        ("Café Crème", "cafe creme"), ("ÉTÉ", "ete"), ("été", "ete"), ("Zürich 2019", "zurich 2019"),
        ("Straße", "strasse"), ("STRASSE", "strasse"), ("Łódź", "lodz"), ("Ærøskøbing", "aeroskobing"),
        ("İstanbul", "istanbul"), ("ﬁsh", "fish"), ("ＡＢＣ１", "abc1"), ("ΟΔΟΣ", "οδοσ"), ("οδός", "οδοσ"),
        ("IMG_0001.JPG", "img_0001.jpg"), ("e\u{301}te\u{301}", "ete"), ("a\tb\nc\u{1B}d", "a b c d"),
        ("\u{202E}gpj.exe", "gpj.exe"), ("写真 東京", "写真 東京"),
    ])
    func foldingIgnoresCaseAndAccents(text: String, folded: String) {
        #expect(SearchText.fold(text) == folded)
    }

    @Test func aDocumentHoldsDescriptionFileNameMakeAndModelNotTheFolders() {
        let text = SearchText.document(description: "Café Crème", path: PathBytes("/home/Ann/Holidays/IMG_7.JPG"),
                                       make: "NIKON CORPORATION", model: "NIKON D750")
        #expect(text == "cafe creme\nimg_7.jpg\nnikon corporation\nnikon d750\n")
        let bare = SearchText.fields(description: nil, path: PathBytes("/p/xy"), make: nil, model: nil)
        // A newline after each field: a two-character name begins a trigram.
        #expect(bare == [nil, "xy\n", nil, nil])
    }

    @Test func aFileNameThatIsNotUTF8IsIndexedAsShown() {
        let text = SearchText.document(description: nil, path: PathBytes([0x2F, 0x61, 0xFF, 0x62]), make: nil, model: nil)
        #expect(text == "a\u{FFFD}b\n")
    }

    @Test func queriesSplitAtWhiteSpaceLongestFirstAndDropWordsInsideOthers() throws {
        #expect(try #require(SearchQuery("  Beach\t2019 ")).words == ["beach", "2019"])
        #expect(try #require(SearchQuery("ca CAFÉ cafe é")).words == ["cafe"])
        #expect(try #require(SearchQuery("x t3 zurich")).words == ["zurich", "t3", "x"])
        let query = try #require(SearchQuery("ab x abc"))
        #expect(query.longWords == ["abc"])
        #expect(query.twoCharacterWords.isEmpty, "ab is inside abc")
        #expect(query.oneCharacterWords == ["x"])
    }

    @Test(arguments: ["", "   ", "\t\n", "\u{301}\u{302}", "\u{200B}"])
    func aQueryWithNothingToFindIsNone(text: String) {
        #expect(SearchQuery(text) == nil)
    }

    @Test func userTextIsQuotedForFTS5() {
        #expect(SearchQuery.quoted(#"a"b"#) == #""a""b""#)
        #expect(SearchQuery.quoted("NEAR(x y)") == #""NEAR(x y)""#)
    }

    @Test func thePrefixUpperBoundIsTheNextStringAfterEveryStringWithThePrefix() {
        #expect(SearchQuery.upperBound(ofPrefix: "ca") == "cb")
        #expect(SearchQuery.upperBound(ofPrefix: "a\u{D7FF}") == "a\u{E000}")
        #expect(SearchQuery.upperBound(ofPrefix: "a\u{10FFFF}") == nil)
        #expect(SearchQuery.upperBound(ofPrefix: "") == nil)
    }
}
