import PhotoTestSupport
import Store
import Systemd
import Testing
@testable import PhotoDaemon

/// The service that keeps systemd informed stays in the daemon's group while the index fails a read.
@Suite(.timeLimit(.minutes(1)))
struct SystemdServiceTests {
    /// A failed status read skips one watchdog ping and the loop goes on. It used to end the
    /// service, and with it the whole daemon, with status 0, which systemd does not restart:
    /// photod stopped under its user manager on a loaded machine, with nothing in its log.
    @Test func aFailedStatusReadDoesNotEndTheService() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        await store.close()
        let recorder = LogRecorder()
        // Active as far as the service knows; sd_notify finds no socket in this process's
        // environment, so nothing is sent anywhere.
        let service = SystemdService(notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent"]),
                                     state: LibraryState(), store: store, logger: recorder.logger())
        let running = Task { try await service.run() }
        // Two reads that failed, a tick apart: the loop went on past the first.
        #expect(await eventually(within: 20) {
            recorder.contains("reading the index for systemd's status failed") && recorder.contains("the status read still fails")
        }, "\(recorder.text)")
        running.cancel()
        try await running.value
        #expect(recorder.all.filter { $0.contains("reading the index for systemd's status failed") }.count == 1,
                "the warning is logged once per run of failures: \(recorder.text)")
    }
}
