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
}
