import Logging
import ServiceLifecycle
import Testing
@testable import PhotoDaemon

/// A part of photod that ends on its own fails the daemon, so systemd restarts it.
@Suite(.timeLimit(.minutes(1)))
struct RunsUntilShutdownTests {
    /// Returns at once, as the systemd status loop did after one failed read.
    private struct EndsAtOnce: Service {
        func run() async throws {}
    }

    /// Serves until graceful shutdown, as the varlink server does.
    private struct ServesUntilShutdown: Service {
        func run() async throws { try? await gracefulShutdown() }
    }

    @Test func aServiceThatEndsOnItsOwnFailsTheGroupAndIsNamed() async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: ServesUntilShutdown()), .init(service: RunsUntilShutdown(base: EndsAtOnce(), name: "the test part"))],
            logger: Logger(label: "test")))
        // Without the wrapper the group ends normally here, and photod exited with status 0.
        await #expect(throws: ServiceEndedEarly.self) { try await group.run() }
        #expect(ServiceEndedEarly(name: "the test part").description == "the test part ended on its own, before shutdown")
    }

    @Test func aServiceThatEndsAtShutdownIsNoFailure() async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: RunsUntilShutdown(base: ServesUntilShutdown(), name: "the test part"))],
            logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func aCancelledServiceIsNoFailure() async throws {
        let running = Task { try await RunsUntilShutdown(base: ServesUntilShutdown(), name: "the test part").run() }
        running.cancel()
        try await running.value
    }
}
