#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import SessionBus
import UnixSignals

/// photod-notify's runtime: photod's Watch and the session bus in, one event at a time into the
/// `NotifierMachine`, its actions out. Never answers a request by itself, and never blocks one:
/// without a bus or a notification server, requests wait for photoctl exactly as before.
public struct Notifier: Sendable {
    /// photod's socket.
    public let socketPath: String
    public let logger: Logger
    /// How many requests get a notification of their own at once.
    public let limit: Int

    /// A notifier for the photod at `socketPath`.
    public init(socketPath: String, logger: Logger, limit: Int = 3) {
        self.socketPath = socketPath
        self.logger = logger
        self.limit = limit
    }

    /// One input to the loop.
    private enum Input: Sendable {
        case event(NotifierEvent)
        case busGone(String)
        case stop

        /// What a session bus event means to the machine (or to the loop: the bus is gone).
        init(_ event: BusEvent) {
            switch event {
            case .notified(let tag, let id, let sender): self = .event(.notified(tag: tag, id: id, server: sender))
            case .notifyFailed(let tag, let error): self = .event(.notifyFailed(tag: tag, reason: error.description))
            case .actionInvoked(let id, let key, let sender): self = .event(.actionInvoked(id: id, key: key, sender: sender))
            case .notificationClosed(let id, let reason, let sender):
                self = .event(.notificationClosed(id: id, reason: reason, sender: sender))
            case .serverChanged(let owner): self = .event(.serverChanged(owner: owner))
            case .disconnected(let reason): self = .busGone(reason)
            }
        }
    }

    /// Runs until SIGTERM or SIGINT, or until the session bus goes away; the exit status (0:
    /// with no session bus there is nothing to do, which is no failure to restart for).
    public func run() async -> Int32 {
        let bus: SessionBus
        do {
            bus = try await SessionBus.openUser()
        } catch {
            let text = "no D-Bus session bus, so no desktop alerts: \(error.description). Permission requests wait "
                + "as without photod-notify; answer them with `photoctl permissions prompt`"
            let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "(unset)"
            logger.notice("\(text)", metadata: ["DBUS_SESSION_BUS_ADDRESS": "\(address)"])
            return 0
        }
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let photod = PhotodLink(socketPath: socketPath, logger: logger)
        let tasks: [Task<Void, Never>] = [
            Task {
                for await event in bus.events { input.yield(Input(event)) }
                input.yield(.busGone("the connection ended"))
            },
            Task { await photod.run { input.yield(.event($0)) } },
            Task {
                for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint) {
                    input.yield(.stop)
                    return
                }
            },
        ]
        let runner = ActionRunner(bus: bus, photod: photod, terminal: TerminalLauncher(
            logger: logger, path: ProcessInfo.processInfo.environment["PATH"]), logger: logger,
            lines: NotifierLogGate(logger: logger), wake: { tag, delay in
                // A wake after the loop ended goes into a finished stream, where it is dropped.
                Task {
                    try? await Task.sleep(for: delay)
                    input.yield(.event(.woke(tag: tag)))
                }
            })
        var machine = NotifierMachine(limit: limit, ownerUID: Int(getuid()))
        await runner.perform(machine.start(), on: &machine)
        loop: for await item in inputs {
            switch item {
            case .event(let event):
                await runner.perform(machine.handle(event), on: &machine)
            case .busGone(let reason):
                logger.notice("the session bus went away (\(reason)); photod-notify ends with the session")
                break loop
            case .stop:
                await runner.perform(machine.stop(), on: &machine)
                break loop
            }
        }
        for task in tasks { task.cancel() }
        // Wait for the bus thread: CloseNotification must leave before the process does.
        await bus.close()
        return 0
    }
}
