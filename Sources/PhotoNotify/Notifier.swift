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
import ServiceLifecycle

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

    /// How long a stop waits for the answers of `Notify` calls already sent, to close what they
    /// show: a server answers in milliseconds, and systemd's stop waits much longer than this.
    static let stopWait: Duration = .seconds(2)

    /// One input to the loop.
    private enum Input: Sendable {
        case event(NotifierEvent)
        case busGone(String)
        case stop
        /// The wait after `stop` for unanswered `Notify` calls is over.
        case stopWaitOver

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

    /// Runs until a graceful shutdown (SIGTERM or SIGINT, from the `ServiceGroup`) or until the
    /// session bus goes away. Without a session bus there is nothing to do, which is no failure to
    /// restart for: it returns at once.
    public func run() async throws {
        let bus: SessionBus
        do {
            bus = try await SessionBus.openUser()
        } catch {
            let text = "no D-Bus session bus, so no desktop alerts: \(error.description). Permission requests wait "
                + "as without photod-notify; answer them with `photoctl permissions prompt`"
            let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "(unset)"
            logger.notice("\(text)", metadata: ["DBUS_SESSION_BUS_ADDRESS": "\(address)"])
            return
        }
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let photod = PhotodLink(socketPath: socketPath, logger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in bus.events { input.yield(Input(event)) }
                input.yield(.busGone("the connection ended"))
            }
            group.addTask { await photod.run { input.yield(.event($0)) } }
            await withGracefulShutdownHandler {
                await serve(inputs, bus: bus, photod: photod, wake: { tag, delay in
                    // A timer the machine asked for: a short sleep, so it is not a child of the
                    // group; one that ends after the loop yields into a finished stream, dropped.
                    Task {
                        try? await Task.sleep(for: delay)
                        input.yield(.event(.woke(tag: tag)))
                    }
                })
            } onGracefulShutdown: {
                input.yield(.stop)
                Task {
                    try? await Task.sleep(for: Self.stopWait)
                    input.yield(.stopWaitOver)
                }
            }
            input.finish()
            group.cancelAll()
        }
        // Wait for the bus thread: CloseNotification must leave before the process does.
        await bus.close()
    }

    /// The machine's loop: each input in, its actions out, until a stop or the bus goes away.
    private func serve(_ inputs: AsyncStream<Input>, bus: SessionBus, photod: PhotodLink,
                       wake: @escaping @Sendable (UInt64, Duration) -> Void) async {
        let runner = ActionRunner(bus: bus, photod: photod, terminal: TerminalLauncher(
            logger: logger, path: ProcessInfo.processInfo.environment["PATH"]), logger: logger,
            lines: NotifierLogGate(logger: logger), wake: wake)
        var machine = NotifierMachine(limit: limit, ownerUID: Int(getuid()))
        await runner.perform(machine.start(), on: &machine)
        for await item in inputs {
            switch item {
            case .event(let event):
                let stopping = machine.awaitsAnswersAtStop
                await runner.perform(machine.handle(event), on: &machine)
                if stopping && !machine.awaitsAnswersAtStop { return }
            case .busGone(let reason):
                logger.notice("the session bus went away (\(reason)); photod-notify ends with the session")
                return
            case .stop:
                await runner.perform(machine.stop(), on: &machine)
                if !machine.awaitsAnswersAtStop { return }
            case .stopWaitOver:
                return
            }
        }
    }
}

extension Notifier: Service {}
