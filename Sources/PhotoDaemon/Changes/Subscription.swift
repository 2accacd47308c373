import NIOPosix
import PhotoAPI
import Store
import Varlink

/// `io.photod.Library.Subscribe`: the current token, then the replay after `since`, then
/// every committed change as it happens.
struct Subscription {
    let store: Store
    let hub: ChangeHub
    let mapper: AssetMapper
    let pool: NIOThreadPool

    private static let replayPage = 500

    func run(_ call: VarlinkCall, replier: VarlinkReplier) async throws {
        guard call.more else { throw VarlinkError.expectedMore() }
        let since = try call.parameters(SubscribeParameters.self).since
        // Subscribe before reading the token, so nothing committed in between is missed.
        let (id, changes) = hub.subscribe()
        defer { hub.unsubscribe(id) }
        let store = self.store
        let (current, oldest) = try await pool.runIfActive { (try store.currentToken(), try store.oldestLoggedToken()) }
        try await replier.reply(SubscribeReply(change: Change(token: Int(current))), continues: true)
        var last = current
        if let since {
            let from = Int64(since)
            // The log no longer reaches back to `since`, or `since` is from another index.
            let forgotten = from < (oldest ?? current + 1) - 1 || from > current
            if forgotten {
                try await replier.reply(SubscribeReply(change: Change(token: Int(current), resync: true)), continues: true)
            } else {
                var after = from
                while after < current {
                    let cursor = after
                    let page = try await pool.runIfActive { try store.changes(after: cursor, limit: Self.replayPage) }
                    guard let end = page.last?.token else { break }
                    for change in page where change.token <= current {
                        try await replier.reply(SubscribeReply(change: mapper.change(change)), continues: true)
                    }
                    after = end
                }
            }
        }
        for await change in changes where change.token > last {
            try await replier.reply(SubscribeReply(change: mapper.change(change)), continues: true)
            last = change.token
        }
        guard !Task.isCancelled else { return }
        // The stream ended without the client leaving. Overflow: the subscriber fell too far
        // behind and must re-fetch. Otherwise the daemon is stopping: a clean last reply, and
        // the client resumes later with `since`.
        let resync = hub.didOverflow(id)
        try await replier.reply(SubscribeReply(change: Change(token: Int(last), resync: resync)), continues: false)
    }
}
