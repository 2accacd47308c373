import PhotoAPI
@testable import PhotoNotify

/// A notifier machine driven by a test: events in, and helpers to read the actions out.
struct MachineFixture {
    static let owner = 1000
    static let server = ":1.7"
    static let everything = ServerCapabilities(actions: true, bodyMarkup: true)

    var machine: NotifierMachine
    /// Every action so far, in order.
    var actions: [NotifierAction] = []

    /// A machine that found a server with `capabilities` (and listed no apps yet). New requests
    /// are shown at once unless `showDelay` (NotifierChurnTests hold them back).
    init(capabilities: ServerCapabilities = MachineFixture.everything, showDelay: Duration = .zero) {
        machine = NotifierMachine(limit: 3, ownerUID: MachineFixture.owner, showDelay: showDelay)
        actions = machine.start()
        actions += machine.handle(.serverFound(capabilities))
    }

    /// A pending request of the app `id` (of the owner unless `uid`).
    static func app(_ id: String, uid: Int = owner, label: String? = "Viewer", reason: String? = "to show photos",
                    warning: String? = nil, pending: Bool = true) -> App {
        App(id: id, uid: uid, label: label, status: .notDetermined, reason: reason, pending: pending, warning: warning)
    }

    /// Feeds `event` and returns the actions it produced.
    @discardableResult
    mutating func handle(_ event: NotifierEvent) -> [NotifierAction] {
        let produced = machine.handle(event)
        actions += produced
        return produced
    }

    /// Feeds a Watch event.
    @discardableResult
    mutating func watch(_ kind: AuthorizationEventKind, _ app: App) -> [NotifierAction] {
        handle(.authorization(.init(kind: kind, app: app)))
    }

    /// Answers every `Notify` in `actions` as the server would (ids from `firstID` on, or the
    /// id replaced), and returns the ids given, in order.
    @discardableResult
    mutating func show(_ produced: [NotifierAction], firstID: UInt32 = 1, server: String = MachineFixture.server)
        -> [UInt32] {
        var next = firstID
        var ids: [UInt32] = []
        for case .notify(let tag, let replacing, _) in produced {
            let id = replacing != 0 ? replacing : next
            if replacing == 0 { next += 1 }
            ids.append(id)
            handle(.notified(tag: tag, id: id, server: server))
        }
        return ids
    }

    /// The actions produced after the first `count`.
    func actions(since count: Int) -> [NotifierAction] { Array(actions[count...]) }

    /// The contents of the `Notify` actions among `produced`.
    static func notified(_ produced: [NotifierAction]) -> [NotificationContent] {
        produced.compactMap { if case .notify(_, _, let content) = $0 { content } else { nil } }
    }

    /// The last `Notify` among `produced`: its tag, the id it replaces and its content.
    static func lastNotify(_ produced: [NotifierAction]) -> (tag: UInt64, replacing: UInt32, content: NotificationContent)? {
        for case .notify(let tag, let replacing, let content) in produced.reversed() { return (tag, replacing, content) }
        return nil
    }

    /// The ids closed among `produced`.
    static func closed(_ produced: [NotifierAction]) -> [UInt32] {
        produced.compactMap { if case .close(let id) = $0 { id } else { nil } }
    }

    /// The decisions asked for among `produced`.
    static func decisions(_ produced: [NotifierAction]) -> [NotifierAction] {
        produced.filter { if case .decide = $0 { true } else { false } }
    }

    /// The tags of the `.wake` actions among `produced`.
    static func wakes(_ produced: [NotifierAction]) -> [UInt64] {
        produced.compactMap { if case .wake(let tag, _) = $0 { tag } else { nil } }
    }

    /// The log lines among `produced`.
    static func logs(_ produced: [NotifierAction]) -> [NotifierLog] {
        produced.compactMap { if case .log(let entry) = $0 { entry } else { nil } }
    }
}
