import CSystemd
import Glibc
import SystemPackage

/// The sd-bus connection to the user's session bus. Confined to the bus thread (`BusLoop`):
/// sd-bus objects are not thread-safe, so nothing here is used anywhere else.
final class BusConnection {
    /// The notification server's well-known name, object and interface (Desktop Notifications spec).
    static let notifications = "org.freedesktop.Notifications"
    static let notificationsPath = "/org/freedesktop/Notifications"

    private let bus: OpaquePointer
    /// Where signals and `Notify` answers go, in the order the bus delivered them.
    let events: AsyncStream<BusEvent>.Continuation
    /// Calls sent and not answered yet; each is the userdata of its sd-bus reply callback, so
    /// it stays here (alive) until answered or failed.
    private var calls: [PendingCall] = []
    /// Set by `SessionBus.close()`: the loop ends after the current commands.
    var stopRequested = false
    private var closed = false

    /// Wraps an opened bus, whose events go to `events`.
    private init(bus: OpaquePointer, events: AsyncStream<BusEvent>.Continuation) {
        self.bus = bus
        self.events = events
    }

    deinit { close() }

    /// Fails the calls still waiting, sends what is queued and closes the connection; once.
    func close() {
        guard !closed else { return }
        closed = true
        for call in calls { call.fail(.closed) }
        calls.removeAll()
        sd_bus_flush_close_unref(bus)
    }

    /// Connects to the user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), waits until the bus has accepted it, and listens for the
    /// notification server's signals.
    static func openUser(events: AsyncStream<BusEvent>.Continuation) throws(SessionBusError) -> BusConnection {
        var opened: OpaquePointer?
        let result = sd_bus_open_user_with_description(&opened, "photod-notify")
        guard result >= 0, let opened else { throw .unavailable(Errno(rawValue: -result).description) }
        let connection = BusConnection(bus: opened, events: events)
        var unique: UnsafePointer<CChar>?
        let hello = sd_bus_get_unique_name(opened, &unique)
        guard hello >= 0 else { throw .unavailable("the bus did not accept the connection: \(Errno(rawValue: -hello))") }
        try connection.listenForNotificationSignals()
        return connection
    }

    /// Subscribes to every signal of the notifications interface. The sender is not filtered
    /// here: which notifications a sender may speak for is decided by whoever reads `events`.
    private func listenForNotificationSignals() throws(SessionBusError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let result = sd_bus_match_signal(bus, nil, nil, Self.notificationsPath, Self.notifications, nil, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().received(BusMessageReader(message: message))
            return 0
        }, me)
        if result < 0 { throw .failed(operation: "AddMatch for the notification signals", errno: -result) }
        // Only the bus daemon can send as org.freedesktop.DBus.
        let owners = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.notifications)'"
        let watched = sd_bus_add_match(bus, nil, owners, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().ownerChanged(BusMessageReader(message: message))
            return 0
        }, me)
        if watched < 0 { throw .failed(operation: "AddMatch for NameOwnerChanged", errno: -watched) }
    }

    /// `NameOwnerChanged(name, old, new)` for the notifications name, as an event.
    private func ownerChanged(_ signal: BusMessageReader) {
        guard let name = try? signal.readString(), name == Self.notifications, (try? signal.readString()) != nil,
              let owner = try? signal.readString() else { return }
        events.yield(.serverChanged(owner: owner))
    }

    /// Turns one notifications signal into an event; other members and malformed ones are dropped.
    private func received(_ signal: BusMessageReader) {
        do {
            switch signal.member {
            case "ActionInvoked":
                let id = try signal.readUInt32()
                events.yield(.actionInvoked(id: id, key: try signal.readString(), sender: signal.sender))
            case "NotificationClosed":
                let id = try signal.readUInt32()
                events.yield(.notificationClosed(id: id, reason: try signal.readUInt32(), sender: signal.sender))
            default:
                break
            }
        } catch {
            // A signal that does not have the specified arguments comes from no real server.
        }
    }

    /// Calls `member` of the notification server without waiting; `completion` runs on this
    /// thread with the reply (or the error), exactly once.
    func callNotifications(_ member: String, arguments: (BusMessageWriter) throws(SessionBusError) -> Void,
                           completion: @escaping (Result<BusMessageReader, SessionBusError>) -> Void) {
        var built: OpaquePointer?
        let created = sd_bus_message_new_method_call(bus, &built, Self.notifications, Self.notificationsPath,
                                                     Self.notifications, member)
        guard created >= 0, let message = built else {
            return completion(.failure(.failed(operation: "build \(member)", errno: -created)))
        }
        defer { sd_bus_message_unref(message) }
        do {
            try arguments(BusMessageWriter(message: message))
        } catch {
            return completion(.failure(error))
        }
        let call = PendingCall(completion: completion)
        let sent = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue().complete(BusMessageReader(message: reply))
            return 0
        }, Unmanaged.passUnretained(call).toOpaque(), 0)
        guard sent >= 0 else { return completion(.failure(.failed(operation: "send \(member)", errno: -sent))) }
        calls.append(call)
    }

    /// Dispatches everything that is ready; the reason when the connection is gone.
    func processAll() -> String? {
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 { return Errno(rawValue: -result).description }
            if result == 0 { break }
        }
        calls.removeAll { $0.isDone }
        return nil
    }

    /// What to poll for: the bus's descriptor and events, and how long until sd-bus has work of
    /// its own (a call timing out), in milliseconds (-1: none).
    func pollRequest() -> (descriptor: Int32, events: Int16, timeout: Int32)? {
        let descriptor = sd_bus_get_fd(bus)
        let wanted = sd_bus_get_events(bus)
        guard descriptor >= 0, wanted >= 0 else { return nil }
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else {
            return (descriptor, Int16(truncatingIfNeeded: wanted), -1)
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let left = deadline > nowMicroseconds ? (deadline - nowMicroseconds + 999) / 1000 : 0
        return (descriptor, Int16(truncatingIfNeeded: wanted), Int32(min(left, UInt64(Int32.max))))
    }
}

/// One call waiting for its reply; the completion runs once, with the reply or a failure.
private final class PendingCall {
    private var completion: ((Result<BusMessageReader, SessionBusError>) -> Void)?

    /// A call whose reply goes to `completion`.
    init(completion: @escaping (Result<BusMessageReader, SessionBusError>) -> Void) {
        self.completion = completion
    }

    /// Whether the completion has run.
    var isDone: Bool { completion == nil }

    /// Hands the reply (a method return or an error) to the completion.
    func complete(_ reply: BusMessageReader) {
        if let error = reply.error { fail(error) } else { take()?(.success(reply)) }
    }

    /// Hands a failure to the completion.
    func fail(_ error: SessionBusError) {
        take()?(.failure(error))
    }

    /// The completion, taken so that it runs once.
    private func take() -> ((Result<BusMessageReader, SessionBusError>) -> Void)? {
        defer { completion = nil }
        return completion
    }
}
