import Logging
import PhotoAPI
import Synchronization
import Testing
@testable import PhotoNotify

/// Apps that ask and hang up in a loop (issue 26, request churn): a request reaches the desktop
/// only once it has waited, and the lines it causes are capped.
@Suite struct NotifierChurnTests {
    @Test func requestsWithdrawnBeforeTheDelayShowNothing() {
        var fixture = MachineFixture(showDelay: .seconds(1))
        let app = MachineFixture.app("exe:/opt/churn")
        var wakes: [UInt64] = []
        for _ in 0..<178 {
            let asked = fixture.watch(.requested, app)
            #expect(MachineFixture.wakes(asked).count == 1)
            wakes += MachineFixture.wakes(asked)
            fixture.watch(.cancelled, app)
        }
        // The delays end after their requests did: nothing to show for any of them.
        for tag in wakes { fixture.handle(.woke(tag: tag)) }
        #expect(MachineFixture.notified(fixture.actions).isEmpty)
        #expect(fixture.actions.filter { if case .probeServer = $0 { true } else { false } }.count == 1)
    }

    @Test func aRequestStillWaitingAfterTheDelayIsShownOnce() throws {
        var fixture = MachineFixture(showDelay: .seconds(1))
        let app = MachineFixture.app("exe:/opt/viewer")
        let asked = fixture.watch(.requested, app)
        #expect(MachineFixture.notified(asked).isEmpty)
        #expect(asked.contains(.wake(tag: try #require(MachineFixture.wakes(asked).first), after: .seconds(1))))
        // Asking again while held changes nothing; the summary does not count it either.
        #expect(MachineFixture.notified(fixture.watch(.requested, app)).isEmpty)
        let shown = fixture.handle(.woke(tag: try #require(MachineFixture.wakes(asked).first)))
        #expect(MachineFixture.notified(shown).count == 1)
        #expect(MachineFixture.notified(shown).first?.body.contains("exe:/opt/viewer") == true)
    }

    @Test func aWakeOfAnEarlierRequestDoesNotShowTheNextOne() throws {
        var fixture = MachineFixture(showDelay: .seconds(1))
        let app = MachineFixture.app("exe:/opt/churn")
        let first = try #require(MachineFixture.wakes(fixture.watch(.requested, app)).first)
        fixture.watch(.cancelled, app)
        let second = try #require(MachineFixture.wakes(fixture.watch(.requested, app)).first)
        #expect(MachineFixture.notified(fixture.handle(.woke(tag: first))).isEmpty)
        #expect(MachineFixture.notified(fixture.handle(.woke(tag: second))).count == 1)
    }

    @Test func requestsListedAtConnectHaveWaitedAlready() {
        var fixture = MachineFixture(showDelay: .seconds(1))
        let produced = fixture.handle(.appsListed([MachineFixture.app("exe:/opt/viewer")]))
        #expect(MachineFixture.notified(produced).count == 1)
        #expect(MachineFixture.wakes(produced).isEmpty)
    }

    @Test func forgedClickWarningsAreCapped() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, MachineFixture.app("exe:/opt/viewer"))).first)
        let recorder = LineRecorder()
        let gate = NotifierLogGate(logger: recorder.logger)
        for _ in 0..<5000 {
            for case .log(let entry) in fixture.handle(.actionInvoked(id: id, key: "allow", sender: ":1.66")) {
                gate.log(entry)
            }
        }
        #expect(recorder.lines.withLock { $0.count } == gate.linesPerWindow)
        #expect(recorder.lines.withLock { $0.allSatisfy { $0.contains("did not send") } })
        // Another app's lines have their own budget.
        gate.log(NotifierLog(.warning, "ignored an action that the notification server did not send",
                             ["app": "exe:/opt/other", "uid": "1000"]))
        #expect(recorder.lines.withLock { $0.count } == gate.linesPerWindow + 1)
    }
}

/// Records the messages a logger writes.
final class LineRecorder: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "photod-notify-test") { _ in Handler(recorder: self) }
    }

    private struct Handler: LogHandler {
        let recorder: LineRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.lines.withLock { $0.append(event.message.description) }
        }
    }
}
