import Foundation
import Testing

@testable import Varlink

@Suite("Open-file limit")
struct OpenFileLimitTests {
    @Test("a soft limit below the hard one is raised to it")
    func raisesSoftToHard() throws {
        let before = try #require(OpenFileLimit.current())
        try #require(before.hard > 64, "the hard limit is too low to lower the soft one safely")
        // One below the hard limit: lowered enough to see the raise, not enough to trouble tests
        // running beside this one.
        var lowered = rlimit(rlim_cur: rlim_t(before.hard - 1), rlim_max: rlim_t(before.hard))
        try #require(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0)
        #expect(OpenFileLimit.current()?.soft == before.hard - 1)
        let after = OpenFileLimit.raiseToHardLimit()
        #expect(after == OpenFileLimit.Limits(soft: before.hard, hard: before.hard))
    }
}
