import PhotoAPI
import Store
import Varlink

/// `io.photod.Library.Complete`: the names that start with what a person typed, as far as the
/// caller may see, for a shell's completion; answered from an index range for the owner.
struct Completer: Sendable {
    let store: Store
    let roots: LibraryRoots
    let authorizer: Authorizer
    let rules: GroupingRules

    /// Candidates when the caller names no limit, and the most it may ask for.
    static let defaultLimit = 100
    static let maximumLimit = 1000
    /// Longer names are left out: nobody completes them on a command line.
    static let maximumName = 4096
    /// The candidates stop before their bytes pass this, so that a reply stays far below the
    /// varlink message limit whatever JSON's escaping makes of them.
    static let maximumBytes = 131_072

    /// The candidates of `parameters.kind` for `caller`, admitted with `access`.
    func complete(_ parameters: CompleteParameters, caller: Caller, access: LibraryAccess) async throws -> CompleteReply {
        let limit = parameters.limit ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else { throw VarlinkError.invalidParameter("limit") }
        let prefix = parameters.prefix
        let names: [String]
        var fallback = false
        switch (parameters.kind, access) {
        case (.group, _):
            (names, fallback) = try await store.read(as: access) { [rules] in
                try $0.groupNames(withPrefix: prefix, excluding: rules.fallbackKey, maximumBytes: Self.maximumName,
                                  limit: limit)
            }
        case (.asset, _):
            names = try await store.read(as: access) { try $0.assetIDs(withPrefix: prefix, limit: limit) }
        case (.app, _):
            try Self.requireOwner(caller, for: "app ids")
            let ids = await authorizer.allRecords().map(\.app)
            names = Self.matching(ids + Self.uniqueComponents(of: ids, prefix: prefix), prefix, limit)
        case (.root, _):
            try Self.requireOwner(caller, for: "roots")
            names = Self.matching(roots.all.map(\.configured), prefix, limit)
        }
        let name = rules.fallbackName
        let fits = name.utf8.starts(with: prefix.utf8) || prefix.utf8.starts(with: name.utf8)
        return CompleteReply(candidates: Self.capped(names), fallback: fallback && fits ? name : nil)
    }

    /// The distinct `names` starting with `prefix`, at most `maximumName` bytes each, in byte
    /// order, at most `limit`.
    static func matching(_ names: [String], _ prefix: String, _ limit: Int) -> [String] {
        LibraryView.matching(names, prefix, maximumBytes: maximumName, limit: limit)
    }

    /// The components of app ids (`AppMatcher.components(ofID:)`) starting with `prefix` that
    /// only one app has: the short form `permissions allow` takes (`calendar.sh`), so that the
    /// name of a script completes although its id starts with `script:/usr/bin/bash:`. None
    /// for an empty prefix (the ids alone are the list) or one holding `/` or `:` (it is an id).
    static func uniqueComponents(of ids: [String], prefix: String) -> [String] {
        guard !prefix.isEmpty, !prefix.contains(where: { $0 == "/" || $0 == ":" }) else { return [] }
        var holders: [Substring: Int] = [:]
        // The same id of two users counts twice: the component alone would not say whose.
        for id in ids {
            for component in Set(AppMatcher.components(ofID: id)) { holders[component, default: 0] += 1 }
        }
        return holders.compactMap { component, count in
            count == 1 && component.utf8.starts(with: prefix.utf8) ? String(component) : nil
        }
    }

    /// `names` up to the last one that keeps their bytes within `maximumBytes`.
    static func capped(_ names: [String]) -> [String] {
        var total = 0
        return Array(names.prefix { name in
            total += name.utf8.count
            return total <= maximumBytes
        })
    }

    /// App ids and roots tell what the owner decided and keeps where: theirs alone.
    private static func requireOwner(_ caller: Caller, for what: String) throws {
        guard case .owner = caller else {
            throw VarlinkError(LibraryInterface.Error.ownerOnly, parameters: OwnerOnlyError(
                hint: "completing \(what) is for the library's owner: run photoctl (installed next to photod) "
                    + "or add the program to [permissions] trusted in photod.toml"))
        }
    }
}
