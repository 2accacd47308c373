import Foundation
import PhotoTestSupport
import Testing

/// The test harness's own promise: a child that hangs is killed at its deadline, and the result
/// says where it was stuck, so a hang seen once in CI can be told from a slow machine.
@Suite struct ProcessRunnerTests {
    @Test func aHungChildIsKilledAtItsDeadlineAndSaysWhereItWaited() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ProcessRunner.run("/bin/sleep", ["30"], timeout: 1)
        #expect(clock.now - started < .seconds(15))
        #expect(result.status != 0)
        #expect(result.stderr.contains("killed after 1.0 s"), "\(result.stderr)")
        // sleep waits in clock_nanosleep: the line names the thread, its state and its wait.
        #expect(result.stderr.contains("(sleep) S (sleeping), wchan "), "\(result.stderr)")
    }
}
