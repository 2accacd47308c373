import PhotoAPI
import Testing
@testable import PhotoDaemon

/// An index that cannot be written degrades the daemon, and its reason leads the problems, so
/// `systemctl status` (which shows the first) names it.
@Suite struct IndexProblemStateTests {
    @Test func anUnwritableIndexLeadsTheProblemsUntilItCanBeWrittenAgain() {
        let state = LibraryState()
        state.scanStarted()
        state.setRoot("/photos", .missing, problem: "root /photos is missing")
        state.scanFinished()
        state.setIndexProblem("the index cannot be written (database or disk is full)")
        #expect(state.summary.state == .degraded)
        #expect(state.summary.problems == ["the index cannot be written (database or disk is full)",
                                           "root /photos is missing"])
        let line = SystemdService.statusLine(state: state.summary.state, progress: nil, assets: 3, groups: 1,
                                             problems: state.summary.problems)
        #expect(line == "Watching 3 photos in 1 group; degraded: the index cannot be written (database or disk is full)")
        state.setIndexProblem(nil)
        state.setRoot("/photos", .watching)
        #expect(state.summary.state == .ready)
    }
}
