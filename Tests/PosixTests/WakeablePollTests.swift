import Glibc
import Testing
@testable import Posix

/// The poll every dedicated reader thread waits in (the inotify reader, the session-bus loop).
struct WakeablePollTests {
    /// A pipe whose ends close with the test.
    private final class Pipe {
        let reader: Int32
        let writer: Int32
        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            reader = ends[0]
            writer = ends[1]
        }
        deinit {
            close(reader)
            close(writer)
        }
    }

    @Test func nothingReadyIsATimeoutAndAWakeIsReportedOnceThenDrained() throws {
        let poller = try WakeablePoll()
        let pipe = try Pipe()
        #expect(poller.wait(on: pipe.reader, for: Int16(POLLIN), timeout: 0) == .init(events: 0, woken: false, failed: false))
        poller.wake()
        poller.wake()
        #expect(poller.wait(on: pipe.reader, for: Int16(POLLIN), timeout: -1).woken)
        #expect(!poller.wait(on: pipe.reader, for: Int16(POLLIN), timeout: 0).woken, "both wakes were drained")
    }

    @Test func theDescriptorsEventsAreReported() throws {
        let poller = try WakeablePoll()
        let pipe = try Pipe()
        var byte: UInt8 = 7
        #expect(write(pipe.writer, &byte, 1) == 1)
        let outcome = poller.wait(on: pipe.reader, for: Int16(POLLIN), timeout: -1)
        #expect(outcome.events & Int16(POLLIN) != 0)
        #expect(!outcome.woken)
    }

    @Test func aWakeFromAnotherThreadEndsAWaitWithoutALimit() async throws {
        let poller = try WakeablePoll()
        let pipe = try Pipe()
        let reader = pipe.reader
        async let outcome = DetachedThread.result(name: "test-wait") {
            poller.wait(on: reader, for: Int16(POLLIN), timeout: -1)
        }
        // The wake may come before or during the wait: either way the wait ends with it.
        poller.wake()
        #expect(await outcome.woken)
        withExtendedLifetime(pipe) {}
    }

    @Test func aSecondCloseLeavesDescriptorsOpenedSinceAlone() throws {
        let poller = try WakeablePoll()
        poller.close()
        // The kernel hands out the lowest free numbers: likely the two just closed.
        let pipe = try Pipe()
        poller.close()
        #expect(fcntl(pipe.reader, F_GETFD) != -1 && fcntl(pipe.writer, F_GETFD) != -1)
    }
}
