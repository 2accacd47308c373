#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import Logging
import PhotoAPI
import Store
import Varlink
import Watcher

/// `io.photod.Library`: answers queries from the store and status from the live state, each
/// only as far as the caller may see.
struct LibraryAPI: Sendable {
    /// The store, on the lane of the caller being served (`onLane(_:)`).
    var store: Store
    let indexer: Indexer
    let state: LibraryState
    let mapper: AssetMapper
    let hub: ChangeHub
    let watches: WatchSet
    let gate: AccessGate
    let images: ImageSide
    let delivery: ImageDelivery
    /// `Import`.
    let importing: ImportCall
    /// `SetDescription`.
    let describing: SetDescriptionCall
    /// The changes apps asked for, waiting for the owner (an app's `SetDescription`).
    let changes: ChangeRequests
    /// `Pick`.
    let picking: PickCall
    let logger: Logger
    /// How many searches each app may run at once.
    let costlyCalls = CostlyCallLimit(perApp: 2, perUser: 4)
    /// Group names folded for `ListGroups`' order, kept between calls.
    let groupSortKeys = GroupOrder.Keys()

    /// The same API reading on `lane`: the owner's calls on the reserved lane, apps' on the shared.
    func onLane(_ lane: StoreLane) -> LibraryAPI {
        var api = self
        api.store = store.lane(lane)
        return api
    }

    /// Page size when the caller names none, and the largest page served.
    static let defaultLimit = 1000
    static let maximumLimit = 10_000

    /// The interface's methods. Each is admitted with what the caller may see (an owner-only
    /// one needs no gate: the owner sees everything).
    var routes: RouteTable<LibraryAccess> {
        var table = RouteTable<LibraryAccess>(interface: LibraryInterface.name, description: InterfaceText.library) {
            [gate] caller, method in
            switch method.access {
            case .ownerOnly: .everything
            case .adding: try await gate.addAccess(for: caller)
            case .identified: try gate.identifiedAccess(for: caller)
            case .anyApp where AccessGate.readsPicked.contains(method.name): try await gate.accessWithPicked(for: caller)
            case .anyApp: try await gate.access(for: caller)
            }
        }
        // Each read runs on the caller's lane: the owner's on one that no app's work can hold.
        table.on(LibraryMethods.status) { try await onLane($0.caller.storeLane).status($0.admission) }
        table.on(LibraryMethods.listGroups) { try await onLane($0.caller.storeLane).listGroups($0.admission) }
        table.on(LibraryMethods.listAssets) { try await onLane($0.caller.storeLane).listAssets($0.parameters, $0.admission) }
        table.on(LibraryMethods.getAssets) { try await onLane($0.caller.storeLane).getAssets($0.parameters, $0.admission) }
        table.on(LibraryMethods.search) { request in
            try await costlyCalls.admit(request.caller) {
                try await onLane(request.caller.storeLane).search(request.parameters, request.admission)
            }
        }
        table.on(LibraryMethods.rescan) { try await rescan($0.parameters) }
        let completer = Completer(store: store, roots: indexer.roots, authorizer: gate.authorizer, rules: mapper.rules)
        table.on(LibraryMethods.complete) { try await completer.complete($0.parameters, caller: $0.caller, access: $0.admission) }
        table.stream(LibraryMethods.requestImage) { request in
            try await delivery.request(request.parameters, access: request.admission,
                                       caller: request.caller.isOwner ? .owner : .app(request.caller.appID),
                                       more: request.call.more, replier: request.replier)
        }
        table.stream(LibraryMethods.openOriginal) { [opener = images.opener(store: store, logger: logger)] request in
            try await opener.open(request.parameters, access: request.admission, caller: request.caller,
                                  more: request.call.more, replier: request.replier)
        }
        table.on(LibraryMethods.importPhoto) { request in
            try await importing.run(request.parameters, call: request.call, caller: request.caller)
        }
        let appDescribing = AppDescriptionCall(describing: describing, changes: changes, gate: gate)
        table.stream(LibraryMethods.setDescription) { request in
            guard case .app(let identity) = request.caller else {
                // The owner's clients write at once.
                return try await request.replier.reply(
                    try await describing.run(request.parameters, access: request.admission, caller: request.caller))
            }
            try await appDescribing.run(request.parameters, identity: identity, access: request.admission,
                                        call: request.call, replier: request.replier)
        }
        table.stream(LibraryMethods.pick) { request in
            try await picking.run(request.parameters, caller: request.caller, call: request.call, replier: request.replier)
        }
        table.stream(LibraryMethods.subscribe) { request in
            let subscription = Subscription(store: store, hub: hub, mapper: mapper, gate: gate)
            try await subscription.run(since: request.parameters.since, call: request.call, caller: request.caller,
                                       access: request.admission, replier: request.replier)
        }
        return table
    }

    func status(_ access: LibraryAccess = .everything) async throws -> StatusReply {
        let summary = state.summary
        let roots = indexer.roots.all
        let polled = indexer.polled
        // A root on a polled file system is not resolved again: a stat there may hang.
        let paths = roots.map { root in
            polled.polledRoot(root.configured)?.path ?? root.resolveOrConfigured()
        }
        let (counts, totals, token) = try await store.read(as: access) { view in
            (try paths.map { try view.assetCount(under: $0) }, try view.totals(), try view.currentToken())
        }
        // A limited app gets counts of what it sees; scan progress and watch counts would tell
        // it how big the hidden rest is.
        let limited = access != .everything
        return StatusReply(
            version: PhotodVersion.current,
            state: summary.state,
            roots: zip(roots, counts).map { root, count in
                polled.describe(Root(path: root.configured, state: state.rootState(root.configured), assets: count),
                                limited: limited)
            },
            assets: totals.assets,
            groups: totals.groups,
            token: Int(token),
            watches: limited ? 0 : watches.watchCount,
            problems: limited ? [] : summary.problems,
            progress: limited ? nil : summary.progress,
            overflows: limited ? nil : state.overflows,
            thumbnails: limited ? nil : await images.status())
    }

    func listGroups(_ access: LibraryAccess = .everything) async throws -> ListGroupsReply {
        let groups = try await store.read(as: access) { try $0.groups() }
        let ordered = GroupOrder.sorted(groups, fallbackKey: mapper.rules.fallbackKey, keys: groupSortKeys)
        return ListGroupsReply(groups: ordered.map(mapper.group), progress: progress(for: access))
    }

    /// The running reconcile's progress for a reply that may be partial because of it; nil for
    /// a limited app, as in `Status`: the counts would tell it how big the hidden rest is.
    func progress(for access: LibraryAccess) -> ScanProgress? {
        access == .everything ? state.runningProgress : nil
    }

    func listAssets(_ parameters: ListAssetsParameters, _ access: LibraryAccess = .everything) async throws -> ListAssetsReply {
        let limit = parameters.limit ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else { throw VarlinkError.invalidParameter("limit") }
        let sort = StoreSort(rawValue: (parameters.sort ?? .taken).rawValue) ?? .taken
        let reverse = parameters.reverse ?? false
        let range = try TimeFilter.range(since: parameters.since, until: parameters.until, zone: .current)
        let groupKey = try await groupKey(named: parameters.group, fallback: parameters.fallback, access)
        let position = try parameters.cursor.map { cursor throws(VarlinkError) in
            guard let decoded = AssetCursor.decode(cursor, sort: sort, reverse: reverse, groupKey: groupKey) else {
                throw VarlinkError(LibraryInterface.Error.invalidCursor, parameters: InvalidCursorError(cursor: cursor))
            }
            return decoded
        }
        let listing = StoreListing(groupKey: groupKey, sort: sort, descending: reverse, range: range,
                                   selection: access.selection)
        // One extra row tells whether another page follows, without a count query.
        let rows = try await store.read { try $0.assets(listing, after: position, limit: limit + 1) }
        let page = Array(rows.prefix(limit))
        var next: String?
        if rows.count > limit, let last = page.last {
            next = AssetCursor(sort: sort, reverse: reverse, groupKey: groupKey,
                               position: AssetCursor.position(after: last, sort: sort)).encoded
        }
        return ListAssetsReply(assets: page.map(mapper.asset), cursor: next, progress: progress(for: access))
    }

    /// The key of the group a call names (`group` and `fallback`, as `ListAssets` takes them),
    /// nil when it names none (every group).
    func groupKey(named name: String?, fallback: Bool?, _ access: LibraryAccess) async throws -> String? {
        guard name != nil || fallback == true else { return nil }
        return try await visibleGroupKey(named: name, fallback: fallback, access)
    }

    /// The key of the group the caller names (`GroupNaming`), or `GroupNotFound` with the
    /// nearest names it can see. A limited caller's name is matched only against its own
    /// visible groups, so a hidden group costs the same as none and is never suggested (see
    /// `VisibleSet`).
    private func visibleGroupKey(named name: String?, fallback: Bool?, _ access: LibraryAccess) async throws -> String {
        let rules = mapper.rules
        let candidates = name.map { rules.candidateKeys(forName: $0, fallback: fallback) } ?? [rules.fallbackKey]
        if let key = try await store.read(as: access, { try $0.firstGroup(among: candidates) }) { return key }
        let asked = name ?? rules.fallbackName
        // Any app may ask, with up to 64 KiB of name: suggesting costs a search of every name
        // it can see, so a name no one types by hand gets none.
        guard asked.utf8.count <= Self.suggestedNameBytes else {
            throw VarlinkError(LibraryInterface.Error.groupNotFound, parameters: GroupNotFoundError(name: asked, closest: []))
        }
        let names = try await store.read(as: access) { try $0.groupNames() }
        // Two groups may share a name (the fallback group and a description): offered once.
        throw VarlinkError(LibraryInterface.Error.groupNotFound, parameters: GroupNotFoundError(
            name: asked, closest: SelectionCatalog.closest(to: asked, among: Array(Set(names)))))
    }

    /// The longest group name (UTF-8 bytes) that `GroupNotFound` suggests near names for.
    static let suggestedNameBytes = 1000

    func getAssets(_ parameters: GetAssetsParameters, _ access: LibraryAccess = .everything) async throws -> GetAssetsReply {
        guard parameters.ids.count <= Self.maximumLimit else { throw VarlinkError.invalidParameter("ids") }
        guard (parameters.paths?.count ?? 0) <= Self.maximumLimit else { throw VarlinkError.invalidParameter("paths") }
        guard (parameters.pathBytes?.count ?? 0) <= Self.maximumLimit else { throw VarlinkError.invalidParameter("pathBytes") }
        let pathBytes = try parameters.pathBytes.map(PathLookup.decode)
        let ids = parameters.ids
        // Hidden ids join the missing ones (`LibraryView`).
        let found = try await store.read(as: access) { try $0.assets(ids: ids) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var assets: [Asset] = []
        var missing: [String] = []
        for id in ids {
            if let asset = byID[id] { assets.append(mapper.asset(asset)) } else { missing.append(id) }
        }
        if let paths = parameters.paths, !paths.isEmpty {
            let byPath = try await PathLookup(store: store).assets(at: paths.map(PathBytes.init), access)
            for path in paths {
                if let asset = byPath[PathBytes(path)] { assets.append(mapper.asset(asset)) } else { missing.append(path) }
            }
        }
        var missingPathBytes: [String]?
        if let pathBytes, let given = parameters.pathBytes {
            var notFound: [String] = []
            if !pathBytes.isEmpty {
                let byPath = try await PathLookup(store: store).assets(at: pathBytes, access)
                for (path, entry) in zip(pathBytes, given) {
                    if let asset = byPath[path] { assets.append(mapper.asset(asset)) } else { notFound.append(entry) }
                }
            }
            missingPathBytes = notFound
        }
        return GetAssetsReply(assets: assets, missing: missing, missingPathBytes: missingPathBytes)
    }

    func rescan(_ parameters: RescanParameters) async throws -> RescanReply {
        var only: LibraryRoot?
        if let requested = parameters.root {
            guard let root = indexer.roots.root(named: requested) else {
                throw VarlinkError(LibraryInterface.Error.rootNotFound, parameters: RootNotFoundError(
                    root: requested, roots: indexer.roots.all.map(\.configured)))
            }
            only = root
        }
        if parameters.forget == true {
            guard let only else { throw VarlinkError.invalidParameter("forget") }
            do {
                let report = try await indexer.forgetAway(only)
                return RescanReply(scanned: report.scanned, changed: report.changed)
            } catch let error as UnwritableIndexError {
                throw VarlinkError(LibraryInterface.Error.indexUnwritable, parameters: IndexUnwritableError(reason: "\(error)"))
            }
        }
        do {
            let report = try await indexer.reconcile(only: only, reason: "Rescan")
            return RescanReply(scanned: report.scanned, changed: report.changed)
        } catch let error as UnwritableIndexError {
            throw VarlinkError(LibraryInterface.Error.indexUnwritable, parameters: IndexUnwritableError(reason: "\(error)"))
        }
    }
}
