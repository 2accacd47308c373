import PhotoAPI
import Testing
@testable import PhotoDaemon

@Suite struct LibraryStateTests {
    @Test func startingThenScanningWithProgressThenReady() {
        let state = LibraryState()
        #expect(state.summary.state == .starting)
        #expect(state.summary.progress == nil)

        state.scanStarted()
        state.progress.found(40)
        state.progress.addTotal(30)
        state.progress.indexed(12)
        let scanning = state.summary
        #expect(scanning.state == .scanning)
        #expect(scanning.progress == ScanProgress(found: 40, indexed: 12, total: 30))

        state.scanFinished()
        #expect(state.summary.state == .ready)
        #expect(state.summary.progress == nil)
    }

    @Test func aMissingRootDegradesUntilItReturns() {
        let state = LibraryState()
        state.scanStarted()
        state.setRoot("/photos", .missing, problem: "root /photos is missing")
        state.scanFinished()
        #expect(state.summary.state == .degraded)
        #expect(state.summary.problems == ["root /photos is missing"])
        #expect(state.rootState("/photos") == .missing)

        state.scanStarted()
        state.setRoot("/photos", .watching)
        state.scanFinished()
        #expect(state.summary.state == .ready)
        #expect(state.summary.problems.isEmpty)
    }

    @Test func aNewScanStartsItsProgressFromZero() {
        let state = LibraryState()
        state.scanStarted()
        state.progress.found(5)
        state.scanFinished()
        state.scanStarted()
        #expect(state.summary.progress == ScanProgress(found: 0, indexed: 0, total: nil))
    }
}

@Suite struct LibraryRootTests {
    @Test func nestedAndRepeatedRootsAreIndexedOnce() {
        let roots = LibraryRoot.distinct(["/a/photos/", "/a/photos/2020", "/a/photos", "/b", "/a/photosX"])
        #expect(roots.map(\.configured) == ["/a/photos", "/b", "/a/photosX"])
    }
}
