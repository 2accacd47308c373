import PhotoAPI

/// photod-notify's logic as a value: events in (`handle`), actions out, no I/O, so every rule
/// is tested without photod or D-Bus.
///
/// It keeps the requests waiting for the owner in arrival order and shows the first `limit` of
/// them, each as one notification with Allow / Deny / Choose…; the others are counted in one
/// summary notification. A request answered anywhere (a button, photoctl, a timeout, the app
/// hanging up) closes its notification. Signals about a notification count only from the bus
/// name that showed it, so another program on the bus cannot press Allow. A new request is
/// shown only once it has waited `showDelay`, so one withdrawn at once shows nothing.
public struct NotifierMachine: Sendable {
    /// Whether a notification server is there, as far as the machine knows.
    enum Server: Equatable, Sendable {
        case unknown
        case probing
        case available(ServerCapabilities)
        case missing
    }

    /// How many requests get a notification of their own at once.
    public let limit: Int
    /// The user photod-notify runs as; another user's app says whose it is.
    public let ownerUID: Int
    /// How long a new request waits before it is shown.
    public let showDelay: Duration
    var server: Server = .unknown
    /// The missing server was logged; quiet until one is found.
    var missingLogged = false
    var requests: [PendingRequest] = []
    /// The summary of the requests beyond `limit`.
    var overflow: NotificationState = .none
    /// The count of waiting requests when the owner closed the summary: it stays closed until the count changes.
    var overflowDismissedAt: Int?
    /// The `Notify` calls still unanswered when photod-notify was told to stop (`stop()`): what
    /// they show is closed when their answers come.
    private var answersAtStop: Set<UInt64> = []
    private var stopped = false
    private var nextTag: UInt64 = 1

    /// A machine showing at most `limit` requests at once, for the owner `ownerUID`, each once
    /// it has waited `showDelay`.
    public init(limit: Int = 3, ownerUID: Int, showDelay: Duration = .seconds(1)) {
        self.limit = max(1, limit)
        self.ownerUID = ownerUID
        self.showDelay = showDelay
    }

    /// The first actions: find out whether a notification server is there.
    public mutating func start() -> [NotifierAction] {
        server = .probing
        return [.probeServer]
    }

    /// Takes one event and returns what to do, in order.
    public mutating func handle(_ event: NotifierEvent) -> [NotifierAction] {
        if stopped { return afterStop(event) }
        var actions: [NotifierAction]
        switch event {
        case .serverFound(let capabilities):
            server = .available(capabilities)
            missingLogged = false
            actions = []
        case .serverMissing(let reason):
            actions = serverGone(reason)
        case .serverChanged(let owner):
            actions = serverChanged(owner: owner)
        case .appsListed(let apps, let changes, let picks):
            actions = listed(apps, changes: changes, picks: picks)
        case .authorization(let event):
            actions = apply(event)
        case .photodDisconnected:
            actions = [.note(.notice, "photod's connection dropped; its requests ended with it")]
                + requests.map(\.key).flatMap { remove($0) }
        case .notified(let tag, let id, let server):
            actions = notified(tag: tag, id: id, server: server)
        case .notifyFailed(_, let reason):
            actions = serverGone(reason)
        case .actionInvoked(let id, let key, let sender):
            actions = invoked(id: id, key: key, sender: sender)
        case .notificationClosed(let id, _, let sender):
            actions = closed(id: id, sender: sender)
        case .decideFailed(let key, let warning, let reason):
            actions = decideFailed(key, warning: warning, reason: reason)
        case .promptUnavailable(let key, let command):
            actions = promptUnavailable(key, command: command)
        case .woke(let tag):
            for index in requests.indices where requests[index].heldBy == tag { requests[index].heldBy = nil }
            actions = []
        }
        return actions + reconcile()
    }

    /// Closes every notification shown (photod-notify is stopping: nobody would answer its buttons).
    /// A `Notify` still in flight is closed when its answer comes (`awaitsAnswersAtStop`), and
    /// nothing new is shown after this.
    public mutating func stop() -> [NotifierAction] {
        let shown = requests.compactMap { $0.notification.shown ?? $0.notification.previous }
            + [overflow.shown ?? overflow.previous].compactMap { $0 }
        answersAtStop = Set(requests.compactMap(\.notification.tag) + [overflow.tag].compactMap { $0 })
        requests = []
        overflow = .none
        stopped = true
        return shown.map { .close(id: $0.id) }
    }

    /// Whether photod-notify has stopped and a `Notify` it sent before is still unanswered: the
    /// loop waits for it (briefly), or its notification would stay on the desktop with no one
    /// behind its buttons.
    public var awaitsAnswersAtStop: Bool { stopped && !answersAtStop.isEmpty }

    /// After `stop()`: only a `Notify`'s answer matters, and what it showed is closed.
    private mutating func afterStop(_ event: NotifierEvent) -> [NotifierAction] {
        switch event {
        case .notified(let tag, let id, _):
            answersAtStop.remove(tag)
            return [.close(id: id)]
        case .notifyFailed(let tag, _):
            answersAtStop.remove(tag)
            return []
        default:
            return []
        }
    }

    /// A new tag for a `Notify`.
    mutating func takeTag() -> UInt64 {
        defer { nextTag += 1 }
        return nextTag
    }

    // MARK: photod's side

    /// The apps and changes listed after (re)connecting: pending apps and the changes are the
    /// requests, the rest are answered.
    private mutating func listed(_ apps: [App], changes: [ChangeRequest], picks: [PickRequest]) -> [NotifierAction] {
        let pending = apps.flatMap { app in AccessLevel.allCases.filter { Self.isPending(app, $0) }.map { (app, $0) } }
        let keys = Set(pending.map { AppKey($0.0, level: $0.1) } + changes.map(AppKey.init) + picks.map(AppKey.init))
        var actions = requests.map(\.key).filter { !keys.contains($0) }.flatMap { remove($0) }
        for (app, level) in pending { actions += upsert(app, level: level, asked: false) }
        for change in changes { actions += upsert(change.app, level: .readWrite, change: change, asked: false) }
        for pick in picks { actions += upsert(pick.app, level: .readWrite, pick: pick, asked: false) }
        return actions
    }

    /// Whether `app` waits for an answer at `level`.
    private static func isPending(_ app: App, _ level: AccessLevel) -> Bool {
        switch level {
        case .readWrite: app.pending
        case .addOnly: app.addOnly?.pending ?? false
        }
    }

    /// One Watch event: a request still pending is kept (up to date), any other ends.
    private mutating func apply(_ event: AuthorizationEventReply.Event) -> [NotifierAction] {
        let level = event.level ?? .readWrite
        switch event.kind {
        case .removed:
            let keys = requests.map(\.key).filter { $0.id == event.app.id && $0.uid == event.app.uid }
            return keys.flatMap { remove($0) }
        case .changeRequested:
            guard let change = event.change else { return [] }
            return upsert(change.app, level: .readWrite, change: change, asked: true)
        case .changeEnded:
            return event.change.map { remove(AppKey($0)) } ?? []
        case .pickRequested:
            guard let pick = event.pick else { return [] }
            return upsert(pick.app, level: .readWrite, pick: pick, asked: true)
        case .pickEnded:
            return event.pick.map { remove(AppKey($0)) } ?? []
        case .decided, .reset, .cancelled:
            return remove(AppKey(event.app, level: level))
        case .requested, .selectionChanged:
            guard Self.isPending(event.app, level) else { return remove(AppKey(event.app, level: level)) }
            return upsert(event.app, level: level, asked: event.kind == .requested)
        }
    }

    /// Records a pending request (of `change`, for a change the app asked for); `asked`: the app
    /// asked (again), so a closed notification comes back.
    private mutating func upsert(_ app: App, level: AccessLevel, change: ChangeRequest? = nil, pick: PickRequest? = nil,
                                 asked: Bool) -> [NotifierAction] {
        let key = change.map(AppKey.init) ?? pick.map(AppKey.init) ?? AppKey(app, level: level)
        if let index = requests.firstIndex(where: { $0.key == key }) {
            // A warning learnt from photod's refusal stays until photod's record carries one.
            let warning = app.warning ?? requests[index].app.warning
            requests[index].app = app
            requests[index].app.warning = warning
            if asked { requests[index].dismissed = false }
        } else {
            var request = PendingRequest(app: app, level: level, change: change, pick: pick)
            // A request photod announces now waits `showDelay` first; one listed at (re)connect
            // has waited already.
            var hold: [NotifierAction] = []
            if asked && showDelay > .zero {
                let tag = takeTag()
                request.heldBy = tag
                hold = [.wake(tag: tag, after: showDelay)]
            }
            requests.append(request)
            guard server == .missing else { return hold }
            server = .probing
            return hold + [.probeServer]
        }
        guard asked && server == .missing else { return [] }
        // No server answered last time; a new request is the moment to look again.
        server = .probing
        return [.probeServer]
    }

    /// Forgets a request (answered, ended or gone) and closes its notification.
    mutating func remove(_ key: AppKey) -> [NotifierAction] {
        guard let index = requests.firstIndex(where: { $0.key == key }) else { return [] }
        let request = requests.remove(at: index)
        // A Notify in flight is closed when its answer comes (its tag is then unknown).
        return [request.notification.shown ?? request.notification.previous].compactMap { $0 }.map { .close(id: $0.id) }
    }

    /// photod refused a decision: with a warning, ask the owner to confirm; otherwise say why.
    private mutating func decideFailed(_ key: AppKey, warning: String?, reason: String) -> [NotifierAction] {
        let log = NotifierLog(.error, "photod refused the decision", ["app": key.id, "uid": "\(key.uid)", "error": reason])
        guard let warning, let index = requests.firstIndex(where: { $0.key == key }) else { return [.log(log)] }
        requests[index].app.warning = warning
        requests[index].confirming = true
        requests[index].dismissed = false
        return [.note(.notice, "photod wants the owner to confirm allowing this app; asking again",
                     ["app": key.id, "uid": "\(key.uid)"])]
    }
}
