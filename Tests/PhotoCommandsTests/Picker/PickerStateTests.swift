import PhotoAPI
import Testing

@testable import PhotoCommands

/// The picker's state machine: groups, paging with the next page fetched ahead, marking up to
/// the limit, the search prompt through find's parser, confirm and cancel.
@Suite struct PickerStateTests {
    static let groups = [Group(name: "Beach", count: 45), Group(name: "Hike", count: 3),
                         Group(name: "Other", count: 2, fallback: true)]

    /// A picker with the groups loaded and `Beach` open, its first page in.
    static func beachOpen(limit: Int = 3, pageSize: Int = 10) -> PickerState {
        var state = PickerState(limit: limit, pageSize: pageSize)
        _ = state.loaded(groups: groups)
        _ = state.handle(.enter)
        _ = state.loaded(page: (0..<10).map { FakeLibrary.asset("Beach", $0) }, next: "10", for: beach)
        _ = state.loaded(page: (10..<20).map { FakeLibrary.asset("Beach", $0) }, next: "20", for: beach)
        return state
    }

    static let beach = PhotoSource.group(name: "Beach", fallback: false)

    @Test func startsOnTheGroupsAndOpensOnTheNamedOne() {
        var state = PickerState(limit: 1, pageSize: 10)
        #expect(state.start() == [.loadGroups, .render])
        #expect(state.loaded(groups: Self.groups) == [.render])
        #expect(state.mode == .groups)

        var named = PickerState(limit: 1, openOn: ["Hike"], pageSize: 10)
        #expect(named.loaded(groups: Self.groups) == [.loadPage(.group(name: "Hike", fallback: false), cursor: nil, limit: 10), .render])
        #expect(named.mode == .photos)

        // Several named: listed first, by name or the fallback group's label, none opened.
        var several = PickerState(limit: 1, openOn: ["Other (no description)", "Hike"], pageSize: 10)
        _ = several.loaded(groups: Self.groups)
        #expect(several.groups.map(\.name) == ["Hike", "Other", "Beach"])
        #expect(several.mode == .groups)
    }

    @Test func pagesAreFetchedOneAheadAndKept() {
        var state = PickerState(limit: 3, pageSize: 10)
        _ = state.loaded(groups: Self.groups)
        #expect(state.handle(.enter) == [.loadPage(Self.beach, cursor: nil, limit: 10), .render])
        // The first page in: the second is asked for before the owner turns to it.
        let first = (0..<10).map { FakeLibrary.asset("Beach", $0) }
        #expect(state.loaded(page: first, next: "10", for: Self.beach) == [.loadPage(Self.beach, cursor: "10", limit: 10), .render])
        let second = (10..<20).map { FakeLibrary.asset("Beach", $0) }
        #expect(state.loaded(page: second, next: "20", for: Self.beach) == [.render], "two pages on hand: no more yet")
        // Turning to page two shows it at once and fetches page three.
        #expect(state.handle(.pageDown) == [.loadPage(Self.beach, cursor: "20", limit: 10), .render])
        #expect(state.currentAsset?.id == "Beach-10")
        #expect(state.handle(.pageDown) == [.render], "one fetch at a time")
        #expect(state.currentAsset?.id == "Beach-19", "never past what is fetched")
        // The page arrives: the cursor goes where PgDn meant it to.
        let third = (20..<30).map { FakeLibrary.asset("Beach", $0) }
        #expect(state.loaded(page: third, next: "30", for: Self.beach) == [.loadPage(Self.beach, cursor: "30", limit: 10), .render])
        #expect(state.currentAsset?.id == "Beach-20")
        _ = state.handle(.pageUp)
        // Back to the groups and into Beach again: nothing fetched again, the cursor kept.
        _ = state.handle(.left)
        #expect(state.mode == .groups)
        #expect(state.handle(.enter) == [.render])
        #expect(state.currentAsset?.id == "Beach-10")
    }

    @Test func marksUpToTheLimitInOrder() {
        var state = Self.beachOpen(limit: 2)
        _ = state.handle(.down)
        _ = state.handle(.space)
        _ = state.handle(.up)
        _ = state.handle(.space)
        #expect(state.marked.map(\.id) == ["Beach-1", "Beach-0"])
        _ = state.handle(.pageDown)
        _ = state.handle(.space)
        #expect(state.marked.count == 2)
        #expect(state.message == "At most 2 photos may be chosen: unmark one first (Space).")
        _ = state.handle(.home)
        #expect(state.message == nil, "the next key clears it")
        _ = state.handle(.down)
        _ = state.handle(.space)
        #expect(state.marked.map(\.id) == ["Beach-0"], "space again unmarks")
        #expect(state.handle(.character("c")) == [.finish(["Beach-0"])])
    }

    @Test func confirmOnTheSummaryOnlyWithSomethingMarked() {
        var state = Self.beachOpen(limit: 1)
        #expect(state.handle(.character("c")) == [.render])
        #expect(state.message?.hasPrefix("Mark a photo first") == true)
        // Enter with nothing marked takes the current photo, and shows the summary.
        _ = state.handle(.down)
        #expect(state.handle(.enter) == [.render])
        #expect(state.mode == .summary)
        #expect(state.marked.map(\.id) == ["Beach-1"])
        _ = state.handle(.backspace)
        #expect(state.mode == .photos)
        _ = state.handle(.character("s"))
        #expect(state.handle(.enter) == [.finish(["Beach-1"])])
    }

    @Test func everyCancelKeyCancels() {
        for key: PickerKey in [.character("q"), .escape, .interrupt, .endOfInput] {
            var state = Self.beachOpen()
            #expect(state.handle(key) == [.cancel])
        }
    }

    @Test func searchPromptUsesFindsParser() {
        var state = Self.beachOpen()
        _ = state.handle(.character("/"))
        #expect(state.prompt == "")
        for character in "sun --group \"Summer trip\"" {
            _ = state.handle(character == " " ? .space : .character(character))
        }
        // q and Esc inside the prompt are text and closing, not cancel.
        _ = state.handle(.character("q"))
        _ = state.handle(.backspace)
        let search = PhotoSource.search(text: "sun", group: "Summer trip")
        #expect(state.handle(.enter) == [.loadPage(search, cursor: nil, limit: 10), .render])
        #expect(state.prompt == nil)
        #expect(state.source == search)

        _ = state.handle(.character("/"))
        #expect(state.handle(.enter) == [.render])
        #expect(state.message == "name at least one word to find")
        #expect(state.prompt == "", "the prompt stays open to be corrected")
        #expect(state.handle(.escape) == [.render])
        #expect(state.prompt == nil)
        #expect(state.handle(.escape) == [.cancel])
    }

    @Test func shellLikeWords() {
        #expect(SearchQuery.words("  sun   'a b' \"c d\"e ") == ["sun", "a b", "c de"])
        #expect(SearchQuery.words("\"\"") == [""])
    }
}
