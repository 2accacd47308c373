import PhotoAPI

/// A notification the server showed: its id, the unique bus name that showed it (the only one
/// whose signals about it count) and what it shows.
struct ShownNotification: Equatable, Sendable {
    var id: UInt32
    var server: String
    var content: NotificationContent
}

/// Where one of the notifier's notifications is on the server.
enum NotificationState: Equatable, Sendable {
    /// Not shown.
    case none
    /// `Notify` was sent with `tag` and not answered yet; `previous` is the one it replaces.
    case sending(tag: UInt64, content: NotificationContent, previous: ShownNotification?)
    /// On the desktop.
    case shown(ShownNotification)

    /// The tag of a `Notify` in flight.
    var tag: UInt64? {
        if case .sending(let tag, _, _) = self { return tag }
        return nil
    }

    /// The notification on the desktop (nil while none is shown or one is being sent).
    var shown: ShownNotification? {
        if case .shown(let notification) = self { return notification }
        return nil
    }

    /// The notification being replaced by a `Notify` in flight.
    var previous: ShownNotification? {
        if case .sending(_, _, let previous) = self { return previous }
        return nil
    }
}

/// One app waiting for the owner's answer, and its notification.
struct PendingRequest: Sendable {
    var app: App
    /// The level the app asked for.
    var level: AccessLevel = .readWrite
    /// For a change the app asked for (an app's SetDescription): the change; nil for access.
    var change: ChangeRequest?
    /// For a pick the app asked for (its Pick): the pick; nil for access.
    var pick: PickRequest?
    /// Allow was pressed for an app with a warning: the notification now asks again.
    var confirming = false
    /// Choose… found no terminal: the command to run instead, which the notification now shows
    /// (without Choose…, which cannot work).
    var withoutTerminal: String?
    var notification: NotificationState = .none
    /// The owner closed its notification: it is not shown again unless the app asks anew.
    var dismissed = false
    /// Set while a new request is held back (the tag of its `.wake`): an app that asks and
    /// hangs up at once never reaches the desktop.
    var heldBy: UInt64?
    /// The last notification of this request the server closed; its buttons may still report
    /// (a server may close a notification before it says which button closed it).
    var lastClosed: ShownNotification?

    var key: AppKey { change.map(AppKey.init) ?? pick.map(AppKey.init) ?? AppKey(app, level: level) }

    /// The notification of this request that `id` names: shown, being replaced, or just closed.
    func notification(withID id: UInt32) -> ShownNotification? {
        [notification.shown, notification.previous, lastClosed].compactMap { $0 }.first { $0.id == id }
    }
}
