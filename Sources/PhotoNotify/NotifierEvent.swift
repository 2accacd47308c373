import PhotoAPI

/// What the notifier learns: from photod, from the notification server, and the results of
/// the actions it asked for. Fed one at a time to `NotifierMachine.handle`.
public enum NotifierEvent: Sendable, Equatable {
    /// `GetCapabilities` answered: a notification server is there.
    case serverFound(ServerCapabilities)
    /// No notification server answered (`reason` says why).
    case serverMissing(reason: String)
    /// The notification server changed hands: `owner` is the new one's unique name, "" for none.
    case serverChanged(owner: String)
    /// Every app photod knows and every change waiting, listed after (re)connecting; the
    /// pending apps and the changes are the requests.
    case appsListed([App], changes: [ChangeRequest] = [], picks: [PickRequest] = [])
    /// One event of photod's `Authorization.Watch` (or the app a decision returned).
    case authorization(AuthorizationEventReply.Event)
    /// photod's connection dropped: its requests ended with it.
    case photodDisconnected
    /// The `Notify` sent with `tag` was shown as `id` by the bus name `server`.
    case notified(tag: UInt64, id: UInt32, server: String)
    /// The `Notify` sent with `tag` failed.
    case notifyFailed(tag: UInt64, reason: String)
    /// `ActionInvoked(id, key)` arrived from the unique bus name `sender`.
    case actionInvoked(id: UInt32, key: String, sender: String)
    /// `NotificationClosed(id, reason)` arrived from the unique bus name `sender`.
    case notificationClosed(id: UInt32, reason: UInt32, sender: String)
    /// photod refused a decision; `warning` is set when it wants the owner's confirmation.
    case decideFailed(AppKey, warning: String?, reason: String)
    /// Choose… found no terminal; `command` is what the owner can run instead.
    case promptUnavailable(AppKey, command: String)
    /// The delay asked for by `.wake(tag:after:)` has passed.
    case woke(tag: UInt64)
}

/// What the notifier asks its runtime to do, in order.
public enum NotifierAction: Sendable, Equatable {
    /// Ask the session bus whether a notification server is there (`GetCapabilities`).
    case probeServer
    /// Send `Notify` (replacing `replacing` unless 0); the answer comes back with `tag`.
    case notify(tag: UInt64, replacing: UInt32, content: NotificationContent)
    /// Send `CloseNotification(id)`.
    case close(id: UInt32)
    /// Ask photod to decide about `app` (`confirmed`: the owner saw its warning and agreed).
    case decide(AppKey, status: AuthorizationStatus, confirmed: Bool)
    /// Ask photod to allow or deny the change `key` names.
    case answerChange(AppKey, allow: Bool)
    /// Ask photod to cancel the pick `key` names (the owner pressed Cancel).
    case cancelPick(AppKey)
    /// Open `photoctl permissions prompt` for `app` in a terminal.
    case openPrompt(AppKey)
    /// Write a log line.
    case log(NotifierLog)
    /// Feed `.woke(tag:)` back once `after` has passed.
    case wake(tag: UInt64, after: Duration)
}

extension NotifierAction {
    /// A log line: `.note(.warning, "…", ["app": id])`.
    static func note(_ level: NotifierLog.Level, _ message: String, _ metadata: [String: String] = [:]) -> NotifierAction {
        .log(NotifierLog(level, message, metadata))
    }
}

/// A log line the machine wants written (the runtime owns the logger).
public struct NotifierLog: Sendable, Equatable {
    /// How loud: `notice` for what the owner did, `warning` for refused or forged input.
    public enum Level: Sendable, Equatable { case debug, info, notice, warning, error }

    public var level: Level
    public var message: String
    /// Values, escaped by the log handler like every other (app ids are hostile).
    public var metadata: [String: String]

    /// A log line.
    public init(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}
