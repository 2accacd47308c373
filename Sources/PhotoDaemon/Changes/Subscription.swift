import PhotoAPI
import Store
import Varlink

/// `io.photod.Library.Subscribe`: the current token, then the replay after `since`, then
/// every committed change as it happens, each only as far as the caller may see it.
struct Subscription {
    let store: Store
    let hub: ChangeHub
    let mapper: AssetMapper
    let gate: AccessGate

    private static let replayPage = 500

    func run(since: Int?, call: VarlinkCall, caller: Caller, access: LibraryAccess, replier: VarlinkReplier) async throws {
        guard call.more else { throw VarlinkError.expectedMore() }
        // Subscribe before reading the token, so nothing committed in between is missed.
        let app: String? = if case .app(let identity) = caller { AppKey(identity).text } else { nil }
        let (id, events) = hub.subscribe(app: app)
        defer { hub.unsubscribe(id) }
        let (current, oldest) = try await store.read { (try $0.currentToken(), try $0.oldestLoggedToken()) }
        var filter = try await makeFilter(access)
        try await replier.reply(SubscribeReply(change: Change(token: Int(current))), continues: true)
        var last = current
        if let since {
            let from = Int64(since)
            // The log no longer reaches back to `since`, or `since` is from another index.
            let forgotten = from < (oldest ?? current + 1) - 1 || from > current
            // A limited app is not replayed the log: whether a removed asset was visible to it
            // then is no longer known, so it re-fetches its (small) selection instead.
            if forgotten || (filter != nil && from < current) {
                try await replier.reply(SubscribeReply(change: Change(token: Int(current), resync: true)), continues: true)
            } else {
                try await replay(after: from, upTo: current, replier: replier)
            }
        }
        for await event in events {
            switch event {
            case .change(let change) where change.token > last:
                last = change.token
                if var limited = filter {
                    let visible = try await visiblePart(of: change, through: &limited)
                    filter = limited
                    guard let visible else { continue }
                    try await replier.reply(SubscribeReply(change: mapper.change(visible)), continues: true)
                } else {
                    try await replier.reply(SubscribeReply(change: mapper.change(change)), continues: true)
                }
            case .change:
                continue
            case .visibility(let visibility):
                filter = try await adjust(filter, to: visibility, caller: caller, token: last, replier: replier)
            }
        }
        guard !Task.isCancelled else { return }
        // The stream ended without the client leaving. Overflow: the subscriber fell too far
        // behind and must re-fetch. Otherwise the daemon is stopping: a clean last reply, and
        // the client resumes later with `since`.
        let resync = hub.didOverflow(id)
        try await replier.reply(SubscribeReply(change: Change(token: Int(last), resync: resync)), continues: false)
    }

    /// Replays the logged changes in (from, current].
    private func replay(after from: Int64, upTo current: Int64, replier: VarlinkReplier) async throws {
        let store = self.store
        var after = from
        while after < current {
            let cursor = after
            let page = try await store.read { try $0.changes(after: cursor, limit: Self.replayPage) }
            guard let end = page.last?.token else { break }
            for change in page where change.token <= current {
                try await replier.reply(SubscribeReply(change: mapper.change(change)), continues: true)
            }
            after = end
        }
    }

    /// A filter for a limited app, seeded with what it sees now; nil for full access.
    private func makeFilter(_ access: LibraryAccess) async throws -> VisibleChangeFilter? {
        guard case .selection(let selection) = access else { return nil }
        let store = self.store
        let visible = try await store.read { try $0.memberships(in: selection) }
        return VisibleChangeFilter(selection: selection, visible: visible)
    }

    /// What a limited app sees of `change`, looking up where its inserted and updated assets are now.
    private func visiblePart(of change: CommittedChange, through filter: inout VisibleChangeFilter) async throws
        -> CommittedChange? {
        let store = self.store
        let ids = change.inserted + change.updated
        let current = ids.isEmpty ? [] : try await store.read { try $0.memberships(ids: ids) }
        return filter.filter(change, current: Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// The owner changed what the app may see: tell it what appeared and disappeared (or to
    /// re-fetch everything), or end the subscription when it may see nothing now.
    private func adjust(_ filter: VisibleChangeFilter?, to visibility: Visibility, caller: Caller, token: Int64,
                        replier: VarlinkReplier) async throws -> VisibleChangeFilter? {
        switch visibility {
        case .none:
            // Refused the way a new call would be, with the hint that fits the new status.
            _ = try await gate.access(for: caller)
            throw VarlinkError(LibraryInterface.Error.authorizationRequired, parameters: AuthorizationRequiredError(
                status: AuthorizationStatus.notDetermined.rawValue, app: caller.appID, hint: "access was withdrawn"))
        case .all:
            if filter != nil {
                try await replier.reply(SubscribeReply(change: Change(token: Int(token), resync: true)), continues: true)
            }
            return nil
        case .selection(let assets, let groups, let fallback):
            let selection = gate.selection(assets: assets, groups: groups, fallback: fallback)
            let store = self.store
            let visible = try await store.read { try $0.memberships(in: selection) }
            guard var limited = filter else {
                // From everything to a part: listing every hidden id as removed would be larger
                // than the re-fetch, and would name ids the app should forget anyway.
                try await replier.reply(SubscribeReply(change: Change(token: Int(token), resync: true)), continues: true)
                return VisibleChangeFilter(selection: selection, visible: visible)
            }
            if let delta = limited.reselect(selection, visible: visible, token: token) {
                try await replier.reply(SubscribeReply(change: mapper.change(delta)), continues: true)
            }
            return limited
        }
    }
}
