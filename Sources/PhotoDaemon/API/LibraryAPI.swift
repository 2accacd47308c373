import Foundation
import Logging
import NIOPosix
import PhotoAPI
import Store
import Varlink
import Watcher

/// `io.photod.Library`: answers queries from the store and status from the live state.
struct LibraryAPI: Sendable {
    let store: Store
    let indexer: Indexer
    let state: LibraryState
    let mapper: AssetMapper
    let pool: NIOThreadPool
    let hub: ChangeHub
    let watches: WatchSet
    let logger: Logger

    /// Page size when the caller names none, and the largest page served.
    static let defaultLimit = 1000
    static let maximumLimit = 10_000

    var interface: VarlinkInterface {
        VarlinkInterface(name: LibraryInterface.name, description: InterfaceText.library) { call, _, replier in
            try await handle(call, replier: replier)
        }
    }

    func handle(_ call: VarlinkCall, replier: VarlinkReplier) async throws {
        switch call.methodName {
        case "Status":
            try await replier.reply(try await status())
        case "ListGroups":
            try await replier.reply(try await listGroups())
        case "ListAssets":
            try await replier.reply(try await listAssets(call.parameters(ListAssetsParameters.self)))
        case "GetAssets":
            try await replier.reply(try await getAssets(call.parameters(GetAssetsParameters.self)))
        case "Rescan":
            try await replier.reply(try await rescan(call.parameters(RescanParameters.self)))
        case "Subscribe":
            try await Subscription(store: store, hub: hub, mapper: mapper, pool: pool).run(call, replier: replier)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    private func onPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    func status() async throws -> StatusReply {
        let summary = state.summary
        let roots = indexer.roots
        let (totals, counts, token) = try await onPool {
            let counts = try roots.map { root in
                try store.assetCount(under: root.resolve() ?? Array(root.configured.utf8))
            }
            return (try store.totals(), counts, try store.currentToken())
        }
        return StatusReply(
            version: PhotodVersion.current,
            state: summary.state,
            roots: zip(roots, counts).map { root, count in
                Root(path: root.configured, state: state.rootState(root.configured), assets: count)
            },
            assets: totals.assets,
            groups: totals.groups,
            token: Int(token),
            watches: watches.watchCount,
            problems: summary.problems,
            progress: summary.progress,
            overflows: state.overflows)
    }

    func listGroups() async throws -> ListGroupsReply {
        let groups = try await onPool { try store.groups() }
        let fallbackKey = mapper.rules.fallbackKey
        // By name, with the fallback group last: it is what is left over, not a topic.
        let ordered = groups.filter { $0.key != fallbackKey } + groups.filter { $0.key == fallbackKey }
        return ListGroupsReply(groups: ordered.map(mapper.group))
    }

    func listAssets(_ parameters: ListAssetsParameters) async throws -> ListAssetsReply {
        let limit = parameters.limit ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else { throw VarlinkError.invalidParameter("limit") }
        let sort = StoreSort(rawValue: (parameters.sort ?? .taken).rawValue) ?? .taken
        var groupKey: String?
        if let name = parameters.group {
            let key = mapper.rules.key(forName: name)
            guard let found = try await onPool({ try store.groupKey(named: name, key: key) }) else {
                throw VarlinkError(LibraryInterface.Error.groupNotFound, parameters: GroupNotFoundError(name: name))
            }
            groupKey = found
        }
        var position: StorePosition?
        if let cursor = parameters.cursor {
            guard let decoded = AssetCursor.decode(cursor, sort: sort, groupKey: groupKey) else {
                throw VarlinkError(LibraryInterface.Error.invalidCursor, parameters: InvalidCursorError(cursor: cursor))
            }
            position = decoded
        }
        let key = groupKey
        let start = position
        // One extra row tells whether another page follows, without a count query.
        let rows = try await onPool { try store.assets(groupKey: key, sort: sort, after: start, limit: limit + 1) }
        let page = Array(rows.prefix(limit))
        var next: String?
        if rows.count > limit, let last = page.last {
            next = AssetCursor(sort: sort, groupKey: groupKey, position: AssetCursor.position(after: last, sort: sort)).encoded
        }
        return ListAssetsReply(assets: page.map(mapper.asset), cursor: next)
    }

    func getAssets(_ parameters: GetAssetsParameters) async throws -> GetAssetsReply {
        guard parameters.ids.count <= Self.maximumLimit else { throw VarlinkError.invalidParameter("ids") }
        let ids = parameters.ids
        let found = try await onPool { try store.assets(ids: ids) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var assets: [Asset] = []
        var missing: [String] = []
        for id in ids {
            if let asset = byID[id] { assets.append(mapper.asset(asset)) } else { missing.append(id) }
        }
        return GetAssetsReply(assets: assets, missing: missing)
    }

    func rescan(_ parameters: RescanParameters) async throws -> RescanReply {
        var only: LibraryRoot?
        if let requested = parameters.root {
            let trimmed = requested.count > 1 && requested.hasSuffix("/") ? String(requested.dropLast()) : requested
            guard let root = indexer.roots.first(where: {
                $0.configured == trimmed || $0.resolve().map { String(decoding: $0, as: UTF8.self) } == trimmed
            }) else {
                throw VarlinkError.invalidParameter("root")
            }
            only = root
        }
        let report = try await indexer.reconcile(only: only, reason: "Rescan")
        return RescanReply(scanned: report.scanned, changed: report.changed)
    }
}
