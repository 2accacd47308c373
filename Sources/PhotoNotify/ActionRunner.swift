#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhotoAPI
import PhotoClient
import SessionBus

/// Carries out the machine's actions against the session bus, photod and the terminal, and
/// turns what comes back at once (a capability probe, a decision) into the next event.
struct ActionRunner: Sendable {
    let bus: SessionBus
    let photod: PhotodLink
    let terminal: TerminalLauncher
    let logger: Logger
    /// The machine's own lines, capped per kind and app.
    let lines: NotifierLogGate
    /// Feeds `.woke(tag:)` to the machine once the duration has passed.
    let wake: @Sendable (UInt64, Duration) -> Void

    /// Runs `actions` in order, feeding every result to `machine` and running what it answers.
    func perform(_ actions: [NotifierAction], on machine: inout NotifierMachine) async {
        var queue = actions[...]
        while let action = queue.popFirst() {
            if let event = await run(action) { queue += machine.handle(event) }
        }
    }

    /// One action; the event it produced, if any.
    private func run(_ action: NotifierAction) async -> NotifierEvent? {
        switch action {
        case .probeServer:
            return await probe()
        case .notify(let tag, let replacing, let content):
            bus.notify(BusNotification(appName: NotificationText.appName, replacesID: replacing, summary: content.summary,
                                       body: content.body, actions: content.flatActions,
                                       expireTimeout: content.expireTimeout), tag: tag)
            return nil
        case .close(let id):
            bus.closeNotification(id: id)
            return nil
        case .decide(let app, let status, let confirmed):
            return await decide(app, status: status, confirmed: confirmed)
        case .answerChange(let key, let allow):
            return await answerChange(key, allow: allow)
        case .cancelPick(let key):
            return await cancelPick(key)
        case .openPrompt(let app):
            return openPrompt(app)
        case .log(let entry):
            lines.log(entry)
            return nil
        case .wake(let tag, let delay):
            wake(tag, delay)
            return nil
        }
    }

    /// Asks whether a notification server is there, and logs which one.
    private func probe() async -> NotifierEvent {
        do {
            let capabilities = try await bus.capabilities()
            let server = try? await bus.serverInformation()
            logger.info("desktop notification server found", metadata: [
                "server": "\(server.map { "\($0.name) \($0.version) (\($0.vendor))" } ?? "unknown")",
                "capabilities": "\(capabilities.joined(separator: " "))"])
            return .serverFound(ServerCapabilities(capabilities))
        } catch {
            return .serverMissing(reason: error.description)
        }
    }

    /// Asks photod to decide; the app it returns closes the notification at once.
    private func decide(_ app: AppKey, status: AuthorizationStatus, confirmed: Bool) async -> NotifierEvent {
        do {
            let decided = try await photod.decide(app, status: status, confirmed: confirmed)
            logger.notice("the owner decided in a desktop notification", metadata: [
                "app": "\(app.id)", "uid": "\(app.uid)", "level": "\(app.level.rawValue)", "status": "\(status.rawValue)",
                "confirmed": "\(confirmed)"])
            return .authorization(AuthorizationEventReply.Event(kind: .decided, app: decided, level: app.level))
        } catch {
            if case .daemon(let refusal) = error, refusal.name == AuthorizationInterface.Error.confirmationRequired {
                let warning = refusal.parameters(ConfirmationRequiredError.self)?.warning
                return .decideFailed(app, warning: warning ?? "allowing it reaches more than one program",
                                     reason: error.description)
            }
            return .decideFailed(app, warning: nil, reason: error.description)
        }
    }

    /// Asks photod to allow or deny a change; its end closes the notification at once.
    private func answerChange(_ key: AppKey, allow: Bool) async -> NotifierEvent {
        do {
            let answered = try await photod.answerChange(key, allow: allow)
            logger.notice("the owner answered a change in a desktop notification", metadata: [
                "app": "\(key.id)", "uid": "\(key.uid)", "change": "\(key.change ?? "-")",
                "answer": "\(answered.answer.rawValue)"])
            return .authorization(AuthorizationEventReply.Event(
                kind: .changeEnded, app: answered.change.app, change: answered.change, answer: answered.answer))
        } catch {
            // Already ended (answered elsewhere, expired, withdrawn): its own event closes it.
            return .decideFailed(key, warning: nil, reason: error.description)
        }
    }

    /// Asks photod to cancel a pick; its end closes the notification at once.
    private func cancelPick(_ key: AppKey) async -> NotifierEvent {
        do {
            let answered = try await photod.cancelPick(key)
            logger.notice("the owner cancelled a pick in a desktop notification", metadata: [
                "app": "\(key.id)", "uid": "\(key.uid)", "pick": "\(key.pick ?? "-")"])
            return .authorization(AuthorizationEventReply.Event(
                kind: .pickEnded, app: answered.pick.app, answer: answered.answer, pick: answered.pick, picked: 0))
        } catch {
            // Already ended (answered elsewhere, expired, withdrawn): its own event closes it.
            return .decideFailed(key, warning: nil, reason: error.description)
        }
    }

    /// Opens the prompt in a terminal; without one, the event that says which command to run.
    private func openPrompt(_ app: AppKey) -> NotifierEvent? {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let photoctl = PromptCommand.photoctl(besides: me) { FileManager.default.isExecutableFile(atPath: $0) }
        let prompt = PromptCommand.arguments(photoctl: photoctl, app: app)
        guard terminal.open(prompt: prompt) else {
            return .promptUnavailable(app, command: PromptCommand.text(for: app))
        }
        logger.notice("opening photoctl permissions prompt in a terminal", metadata: [
            "app": "\(app.id)", "uid": "\(app.uid)", "command": "\(prompt.joined(separator: " "))"])
        return nil
    }
}

extension NotifierLog.Level {
    /// The swift-log level of the same name.
    var swiftLog: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
