import Testing
import TextFolding

/// `foldedUTF8`, the sort key of group names: the bytes of `fold`, by a shorter way for ASCII.
struct FoldedUTF8Tests {
    @Test(arguments: ["", "Beach", "BEACH\tday", "Été", "École", "Straße", "Ålesund ØRESUND", "2021 Trip", "a\u{7F}b"])
    func theBytesAreThoseOfFold(text: String) {
        #expect(TextFolding.foldedUTF8(text) == Array(TextFolding.fold(text).utf8))
    }
}
