import PhotoAPI
import Testing

@testable import PhotoCommands

/// Page-to-page time with 100,000 photos fetched: the state machine, the renderer and the
/// screen text for one PgDn, which a terminal user expects under 50 ms.
@Suite struct PickerBenchmarkTests {
    @Test func pageToPageWith100000Photos() {
        let source = PhotoSource.group(name: "All", fallback: false)
        var state = PickerState(limit: 1000, pageSize: 50)
        _ = state.loaded(groups: [Group(name: "All", count: 100_000)])
        _ = state.handle(.enter)
        let assets = (0..<100_000).map { FakeLibrary.asset("All", $0) }
        _ = state.loaded(page: assets, next: "more", for: source)
        let renderer = PickerRenderer(pick: fakePick(limit: 1000), picture: .text)
        let clock = ContinuousClock()
        var pages = 0
        var slowest = Duration.zero
        let total = clock.measure {
            for _ in 0..<200 {
                let one = clock.measure {
                    _ = state.handle(.pageDown)
                    _ = state.handle(.space)
                    let frame = renderer.frame(state, columns: 160, rows: 55)
                    _ = ScreenText.draw(frame, clearPictures: false, picture: "")
                }
                slowest = max(slowest, one)
                pages += 1
            }
        }
        let average = total / pages
        print("picker page-to-page, 100,000 photos, 50 rows: average \(average), slowest \(slowest)")
        #expect(state.marked.count == 200)
        #expect(average < .milliseconds(50))
    }

    /// From PgDn typed to the next page on the (scripted) terminal, through the whole loop, with
    /// each call taking 5 ms as photod's might and thumbnails 20 ms: the page ahead is on hand.
    @Test func pageToPageThroughTheLoop() async throws {
        var library = FakeLibrary([("All", 100_000)])
        library.latency = .milliseconds(5)
        let terminal = ScriptedTerminal(columns: 140, rows: 25, reply: ScriptedTerminal.kittyReply)
        let clock = ContinuousClock()
        let opened = clock.now
        let picker = Task { try await InteractivePicker.run(fakePick(groups: ["All"]), terminal: terminal, source: library) }
        #expect(await terminal.waitFor("All: 1–20 of 100000"))
        print("picker start to the first page of photos (detection, groups, first page): \(clock.now - opened)")
        try await Task.sleep(for: .milliseconds(100))
        var slowest = Duration.zero
        var total = Duration.zero
        let pages = 30
        for page in 1...pages {
            terminal.clear()
            let started = clock.now
            terminal.type("\u{1B}[6~")
            #expect(await terminal.waitFor("All: \(page * 20 + 1)–\(page * 20 + 20) of 100000"))
            let took = clock.now - started
            total += took
            slowest = max(slowest, took)
            // The owner reads a page for a moment; meanwhile the next is fetched.
            try await Task.sleep(for: .milliseconds(30))
        }
        print("picker PgDn to screen through the loop: average \(total / pages), slowest \(slowest)")
        terminal.type("q")
        #expect(try await picker.value == nil)
        #expect(total / pages < .milliseconds(50))
    }
}
