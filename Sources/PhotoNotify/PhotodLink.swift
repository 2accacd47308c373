import Logging
import PhotoAPI
import PhotoClient

/// photod as photod-notify sees it: a `Watch` stream and a second connection for calls, made
/// again with a growing pause whenever photod goes away (restarted, stopped, not started yet).
/// Connecting socket-activates photod, as for any client.
actor PhotodLink {
    private let socketPath: String
    private let logger: Logger
    /// The connection for `ListApps` and `Decide` while connected.
    private var calls: PhotoClient?
    /// The last failure logged, so an outage is logged once rather than at every try.
    private var lastFailure: String?

    /// A link to photod at `socketPath`.
    init(socketPath: String, logger: Logger) {
        self.socketPath = socketPath
        self.logger = logger
    }

    /// Connects, lists the apps, then delivers every Watch event until the connection drops;
    /// and again, pausing 1 s, 2 s, … up to 30 s between tries, until the task is cancelled.
    func run(deliver: @escaping @Sendable (NotifierEvent) -> Void) async {
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            if await watch(deliver: deliver) { pause = .seconds(1) }
            do {
                try await Task.sleep(for: pause)
            } catch {
                return
            }
            pause = min(pause * 2, .seconds(30))
        }
    }

    /// Owner only: decides about `app` through the calls connection.
    func decide(_ app: AppKey, status: AuthorizationStatus, confirmed: Bool) async throws(PhotoClientError) -> App {
        guard let calls else { throw .unreachable(socket: socketPath, reason: "photod-notify is not connected to photod") }
        return try await calls.decide(app: app.id, uid: app.uid, status: status, confirmed: confirmed ? true : nil,
                                      level: app.level == .readWrite ? nil : app.level)
    }

    /// Owner only: allows or denies the change `key` names, through the calls connection.
    func answerChange(_ key: AppKey, allow: Bool) async throws(PhotoClientError) -> AnswerChangeReply {
        guard let calls else { throw .unreachable(socket: socketPath, reason: "photod-notify is not connected to photod") }
        return try await calls.answerChange(key.change ?? "", allow: allow)
    }

    /// Owner only: cancels the pick `key` names, through the calls connection.
    func cancelPick(_ key: AppKey) async throws(PhotoClientError) -> AnswerPickReply {
        guard let calls else { throw .unreachable(socket: socketPath, reason: "photod-notify is not connected to photod") }
        return try await calls.answerPick(key.pick ?? "", ids: nil, cancel: true)
    }

    /// One connection's life; whether it got as far as listing the apps.
    private func watch(deliver: @Sendable (NotifierEvent) -> Void) async -> Bool {
        let events: PhotoClient
        let calls: PhotoClient
        do {
            events = try await PhotoClient.connect(socketPath: socketPath)
            do {
                calls = try await PhotoClient.connect(socketPath: socketPath)
            } catch {
                await events.close()
                throw error
            }
        } catch {
            failed("cannot reach photod; trying again", error)
            return false
        }
        // Watch first, then list: a request arriving in between is in the stream, not lost.
        let stream = events.watchAuthorization()
        var listed = false
        do {
            let apps = try await calls.listApps()
            let changes = try await calls.listChanges()
            let picks = try await calls.listPicks()
            self.calls = calls
            listed = true
            lastFailure = nil
            logger.info("watching photod's permission requests", metadata: [
                "socket": "\(socketPath)", "waiting": "\(apps.filter(\.pending).count)", "changes": "\(changes.count)", "picks": "\(picks.count)"])
            deliver(.appsListed(apps, changes: changes, picks: picks))
            for try await event in stream { deliver(.authorization(event)) }
            failed("photod ended the Watch; connecting again", nil)
        } catch {
            failed(listed ? "photod's connection dropped; connecting again" : "photod refused photod-notify", error)
        }
        self.calls = nil
        await events.close()
        await calls.close()
        if listed { deliver(.photodDisconnected) }
        return listed
    }

    /// Logs a failure once until something else happens (the same outage seen at every try is quiet).
    private func failed(_ message: String, _ error: (any Error)?) {
        let text = error.map { "\($0)" } ?? ""
        let key = message + text
        let level: Logger.Level = key == lastFailure ? .debug : .notice
        lastFailure = key
        var metadata: Logger.Metadata = ["socket": "\(socketPath)"]
        if let error { metadata["error"] = "\(error)" }
        logger.log(level: level, "\(message)", metadata: metadata)
    }
}
