import Testing
@testable import PhotoCommands

/// Table padding: made in one piece, as many spaces as asked, none for a width already used up.
@Suite struct SpacesTests {
    @Test(arguments: [0, 1, 7, 4_281])
    func asManySpacesAsAsked(count: Int) {
        let padding = String.spaces(count)
        #expect(padding.utf8.count == count)
        #expect(padding == String(repeating: " ", count: count))
    }

    @Test func aWidthPastTheColumnGetsNone() {
        #expect(String.spaces(-3).isEmpty)
    }
}
