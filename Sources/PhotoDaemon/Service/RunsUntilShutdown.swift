import ServiceLifecycle

/// A part of photod that serves until shutdown, so that returning before it is a failure.
///
/// swift-service-lifecycle takes a service that returns for one that is done, cancels the rest
/// of the group and lets the process exit with status 0, which `Restart=on-failure` does not
/// restart, and says so only in a debug line. A part of photod that stops by mistake instead
/// throws `ServiceEndedEarly`, naming itself: photod logs it and exits with status 1, and
/// systemd starts it again.
struct RunsUntilShutdown<Base: Service>: Service {
    /// The service that must not end on its own.
    let base: Base
    /// Its name in the error.
    let name: String

    /// Runs `base`; throws when it returns before shutdown or cancellation asked it to.
    func run() async throws {
        try await base.run()
        guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
        throw ServiceEndedEarly(name: name)
    }
}

/// A part of photod ended on its own, before shutdown.
struct ServiceEndedEarly: Error, CustomStringConvertible {
    /// Which part.
    let name: String

    var description: String { "\(name) ended on its own, before shutdown" }
}
