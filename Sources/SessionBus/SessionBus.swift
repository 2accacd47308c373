/// The user's D-Bus session bus, as a client of the desktop's notification server
/// (`org.freedesktop.Notifications`, Desktop Notifications Specification 1.2).
///
/// One dedicated thread owns the sd-bus connection; these methods queue work for it and hand
/// back Swift values. Signals, and the answers to `notify`, arrive in `events` in bus order.
public final class SessionBus: Sendable {
    /// Signals and `Notify` answers, in the order the bus delivered them; ends with the connection.
    public let events: AsyncStream<BusEvent>
    private let loop: BusLoop

    /// Wraps a loop whose thread is connected.
    private init(loop: BusLoop, events: AsyncStream<BusEvent>) {
        self.loop = loop
        self.events = events
    }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`)
    /// and listens for the notification server's signals; `unavailable` when there is no bus.
    public static func openUser() async throws(SessionBusError) -> SessionBus {
        let loop = try BusLoop()
        let (events, continuation) = AsyncStream.makeStream(of: BusEvent.self)
        let opened = await withCheckedContinuation { (result: CheckedContinuation<Result<Void, SessionBusError>, Never>) in
            loop.start(events: continuation) { result.resume(returning: $0) }
        }
        try opened.get()
        return SessionBus(loop: loop, events: events)
    }

    /// `GetCapabilities`: what the server supports (`actions`, `body-markup`, …).
    public func capabilities() async throws(SessionBusError) -> [String] {
        try await call("GetCapabilities") { reply throws(SessionBusError) in try reply.readStrings() }
    }

    /// `GetServerInformation`: the server's name, vendor and versions.
    public func serverInformation() async throws(SessionBusError) -> ServerInformation {
        try await call("GetServerInformation") { reply throws(SessionBusError) in
            ServerInformation(name: try reply.readString(), vendor: try reply.readString(),
                              version: try reply.readString(), specVersion: try reply.readString())
        }
    }

    /// Sends `Notify`; its answer arrives in `events` as `notified` or `notifyFailed` with `tag`.
    public func notify(_ notification: BusNotification, tag: UInt64) {
        loop.submit { connection in
            guard let connection else { return }
            let events = connection.events
            connection.callNotifications("Notify", arguments: { message throws(SessionBusError) in
                try message.append(notification.appName)
                try message.append(notification.replacesID)
                try message.append(notification.icon)
                try message.append(notification.summary)
                try message.append(notification.body)
                try message.append(notification.actions)
                try message.appendEmptyHints()
                try message.append(notification.expireTimeout)
            }, completion: { result in
                do throws(SessionBusError) {
                    let reply = try result.get()
                    events.yield(.notified(tag: tag, id: try reply.readUInt32(), sender: reply.sender))
                } catch {
                    events.yield(.notifyFailed(tag: tag, error: error))
                }
            })
        }
    }

    /// Sends `CloseNotification(id)` without waiting; the server answers with `NotificationClosed`.
    public func closeNotification(id: UInt32) {
        loop.submit { connection in
            connection?.callNotifications("CloseNotification", arguments: { message throws(SessionBusError) in
                try message.append(id)
            }, completion: { _ in })
        }
    }

    /// Sends what is queued, closes the connection and returns when that is done; `events` ends.
    public func close() async {
        loop.submit { $0?.stopRequested = true }
        await loop.waitUntilClosed()
    }

    /// Calls `member` (no arguments) and reads its reply with `read` on the bus thread.
    private func call<T: Sendable>(_ member: String,
                                   read: @escaping @Sendable (BusMessageReader) throws(SessionBusError) -> T)
        async throws(SessionBusError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, SessionBusError>, Never>) in
            loop.submit { connection in
                guard let connection else { return continuation.resume(returning: .failure(.closed)) }
                connection.callNotifications(member, arguments: { _ throws(SessionBusError) in }, completion: { result in
                    continuation.resume(returning: result.flatMap { reply in
                        Result { () throws(SessionBusError) -> T in try read(reply) }
                    })
                })
            }
        }
        return try result.get()
    }
}
