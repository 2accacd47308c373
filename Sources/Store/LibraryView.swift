import FileSystem

/// What one caller may see of the library for one call.
public enum LibraryAccess: Sendable, Equatable {
    /// The owner, or an app authorized for everything.
    case everything
    /// A limited app: only this selection.
    case selection(StoreSelection)

    /// The selection a limited caller sees; nil for everything.
    public var selection: StoreSelection? {
        if case .selection(let selection) = self { selection } else { nil }
    }
}

/// The index as one caller sees it, for one read on a reader thread (`Store.read(as:_:)`).
/// Every query a limited app can make is written here once, with the rule that keeps hidden
/// photos hidden: a limited caller's lookup starts from its own selection and is answered in
/// memory, so a hidden photo or group and one that does not exist take the same way, and the
/// same time, and look the same in the reply (see `VisibleSet`).
public struct LibraryView {
    let database: StoreDatabase
    /// What this view shows.
    public let access: LibraryAccess

    /// Groups with their counts and newest assets, counting only what the caller sees.
    public func groups() throws -> [StoredGroup] {
        switch access {
        case .everything: try database.groups()
        case .selection(let selection): try database.groups(in: selection)
        }
    }

    /// Assets and groups the caller sees.
    public func totals() throws -> (assets: Int, groups: Int) {
        switch access {
        case .everything: try database.totals()
        case .selection(let selection): try database.totals(in: selection)
        }
    }

    /// Assets under `root` the caller sees.
    public func assetCount(under root: PathBytes) throws -> Int {
        switch access {
        case .everything: try database.assetCount(under: root)
        case .selection(let selection): try database.assetCount(under: root, in: selection)
        }
    }

    /// The assets with these ids that the caller sees; a hidden id is left out as a missing one is.
    public func assets(ids: [String]) throws -> [StoredAsset] {
        switch access {
        case .everything:
            return try database.assets(ids: ids)
        case .selection(let selection):
            let visible = try database.visibleIDs(in: selection)
            return try database.assets(ids: ids.filter(visible.contains))
        }
    }

    /// The assets at exactly these paths that the caller sees; a hidden path is left out as one
    /// not indexed is.
    public func assets(paths: [PathBytes]) throws -> [StoredAsset] {
        switch access {
        case .everything:
            return try database.assets(paths: paths)
        case .selection(let selection):
            let visible = try database.visibleIDsByPath(in: selection)
            return try database.assets(ids: paths.compactMap { visible[$0] })
        }
    }

    /// The first of `keys` that is a group the caller sees (`GroupingRules.candidateKeys` gives
    /// them in order of preference).
    public func firstGroup(among keys: [String]) throws -> String? {
        switch access {
        case .everything:
            return try keys.first { try database.hasGroup(key: $0) }
        case .selection(let selection):
            let visible = VisibleSet(ids: [], groups: try database.visibleGroups(in: selection))
            return keys.first(where: visible.contains(groupKey:))
        }
    }

    /// The names of every group the caller sees.
    public func groupNames() throws -> [String] {
        switch access {
        case .everything: try database.groups().map(\.name)
        case .selection(let selection): try database.visibleGroups(in: selection).map(\.name)
        }
    }

    /// Up to `limit` names of groups the caller sees starting with `prefix`, at most
    /// `maximumBytes` each, other than the group `excluded` (the fallback group, offered by
    /// its own rule); and whether the group `excluded` is one the caller sees.
    public func groupNames(withPrefix prefix: String, excluding excluded: String, maximumBytes: Int,
                           limit: Int) throws -> (names: [String], excludedSeen: Bool) {
        switch access {
        case .everything:
            return (try database.groupNames(withPrefix: prefix, excluding: excluded, maximumBytes: maximumBytes, limit: limit),
                    try database.hasGroup(key: excluded))
        case .selection(let selection):
            let visible = try database.visibleGroups(in: selection)
            let names = visible.filter { $0.key != excluded }.map(\.name)
            return (Self.matching(names, prefix, maximumBytes: maximumBytes, limit: limit),
                    visible.contains { $0.key == excluded })
        }
    }

    /// Up to `limit` ids of assets the caller sees starting with `prefix`, in order.
    public func assetIDs(withPrefix prefix: String, limit: Int) throws -> [String] {
        switch access {
        case .everything:
            return try database.assetIDs(withPrefix: prefix, limit: limit)
        case .selection(let selection):
            return Self.matching(Array(try database.visibleIDs(in: selection)), prefix, maximumBytes: .max, limit: limit)
        }
    }

    /// The distinct `names` starting with `prefix`, at most `maximumBytes` each, in byte order
    /// (as the index orders them), at most `limit`.
    public static func matching(_ names: [String], _ prefix: String, maximumBytes: Int, limit: Int) -> [String] {
        let found = Set(names.filter { $0.utf8.count <= maximumBytes && $0.utf8.starts(with: prefix.utf8) })
        return Array(found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(limit))
    }

    /// What a limited caller's lookups start from: the ids and groups its selection shows,
    /// computed from the selection alone; nil for a caller that sees everything.
    public func visibleSet() throws -> VisibleSet? {
        guard case .selection(let selection) = access else { return nil }
        return VisibleSet(ids: try database.visibleIDs(in: selection), groups: try database.visibleGroups(in: selection))
    }

    /// The newest change token.
    public func currentToken() throws -> Int64 { try database.currentToken() }
}

extension Store {
    /// Runs `body` on a reader thread with the index as a caller with `access` sees it: the one
    /// way in for what a caller asks of the library, so each query and its visibility rule is
    /// written once (`LibraryView`); the queries of one call take one trip to a reader.
    nonisolated(nonsending) public func read<T: Sendable>(
        as access: LibraryAccess, _ body: @escaping @Sendable (LibraryView) throws -> T
    ) async throws -> T {
        try await read { database in try body(LibraryView(database: database, access: access)) }
    }
}
