import SystemPackage

/// A notification as `org.freedesktop.Notifications.Notify` takes it (signature `susssasa{sv}i`).
public struct BusNotification: Sendable, Equatable {
    /// The sending program's name, shown by some servers.
    public var appName: String
    /// The id of a notification to replace in place, or 0 for a new one.
    public var replacesID: UInt32
    /// An icon name or file URI; empty for none.
    public var icon: String
    /// One line of plain text.
    public var summary: String
    /// The text below it; markup only when the server announced `body-markup`.
    public var body: String
    /// Action keys and their labels, in pairs as the specification lays them out: key, label, key, label.
    public var actions: [String]
    /// Milliseconds before the server closes it: -1 the server's default, 0 never.
    public var expireTimeout: Int32

    /// Creates a notification.
    public init(appName: String, replacesID: UInt32 = 0, icon: String = "", summary: String, body: String,
                actions: [String] = [], expireTimeout: Int32 = -1) {
        self.appName = appName
        self.replacesID = replacesID
        self.icon = icon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expireTimeout = expireTimeout
    }
}

/// What `GetServerInformation` says about the notification server.
public struct ServerInformation: Sendable, Equatable {
    /// The product (`dunst`, `gnome-shell`, …).
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String
}

/// What happened on the session bus, in the order the bus delivered it.
///
/// `Notify` answers arrive here rather than to the caller, so that an answer and the signals
/// the server sent before it are seen in the order they were sent.
public enum BusEvent: Sendable, Equatable {
    /// The server showed the notification sent with `tag`, as `id`; `sender` is the unique bus
    /// name that answered, the only one whose signals about `id` are to be believed.
    case notified(tag: UInt64, id: UInt32, sender: String)
    /// The `Notify` sent with `tag` failed (no server, or an error reply).
    case notifyFailed(tag: UInt64, error: SessionBusError)
    /// `ActionInvoked(id, key)` from the unique bus name `sender`.
    case actionInvoked(id: UInt32, key: String, sender: String)
    /// `NotificationClosed(id, reason)` from the unique bus name `sender`.
    case notificationClosed(id: UInt32, reason: UInt32, sender: String)
    /// org.freedesktop.Notifications changed hands (the bus daemon says so): `owner` is the
    /// unique name of the new server, "" when none is left. What the old one showed is gone.
    case serverChanged(owner: String)
    /// The connection to the bus ended; nothing more follows.
    case disconnected(reason: String)
}

/// Why something on the session bus failed.
public enum SessionBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus could be reached (`DBUS_SESSION_BUS_ADDRESS` and its fallback).
    case unavailable(String)
    /// The peer answered with a D-Bus error (`org.freedesktop.DBus.Error.ServiceUnknown`, …).
    case errorReply(name: String, message: String)
    /// An sd-bus call failed with an errno.
    case failed(operation: String, errno: Int32)
    /// The reply did not have the announced signature.
    case badReply(String)
    /// The connection is closed.
    case closed

    /// Whether the error says nobody owns the name called (no notification server running).
    public var isServiceMissing: Bool {
        guard case .errorReply(let name, _) = self else { return false }
        return name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    /// The error in words, for a log line.
    public var description: String {
        switch self {
        case .unavailable(let reason): "no session bus: \(reason)"
        case .errorReply(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .failed(let operation, let errno): "\(operation) failed: \(Errno(rawValue: errno))"
        case .badReply(let reason): "unexpected reply: \(reason)"
        case .closed: "the session bus connection is closed"
        }
    }
}
