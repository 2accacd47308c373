import PhotoAPI
import Store
import Varlink

/// Decides, per call, what a caller may see; refuses callers that may see nothing.
struct AccessGate: Sendable {
    let authorizer: Authorizer
    let rules: GroupingRules

    /// The caller's access, or `AuthorizationRequired` naming the command that changes it.
    func access(for caller: Caller) async throws -> LibraryAccess {
        switch caller {
        case .owner:
            return .everything
        case .unidentified(let reason):
            throw Self.unidentified(reason: reason)
        case .app(let identity):
            let record = await authorizer.record(for: identity)
            switch record.visibility {
            case .all:
                return .everything
            case .selection(let assets, let groups, let fallback):
                return .selection(selection(assets: assets, groups: groups, fallback: fallback))
            case .none:
                throw VarlinkError(LibraryInterface.Error.authorizationRequired, parameters: AuthorizationRequiredError(
                    status: record.status.rawValue, app: record.app, hint: Self.hint(for: record)))
            }
        }
    }

    /// A limited selection in store terms: group names become the keys the index files them
    /// under (a name is the group of that description, never the fallback group, which
    /// `fallback` adds by its own key).
    func selection(assets: Set<String>, groups: Set<String>, fallback: Bool = false) -> StoreSelection {
        var keys = Set(groups.map(rules.key(forName:)).filter { !$0.isEmpty })
        if fallback { keys.insert(rules.fallbackKey) }
        return StoreSelection(groupKeys: keys.sorted(), ids: assets.sorted())
    }

    /// What a refused app (or the person running it) can do about it.
    static func hint(for record: AppAuthorization) -> String {
        switch record.status {
        case .denied:
            return AuthorizationMachine.resetHint(for: record.app, uid: record.uid)
        case .restricted:
            return "the config's [permissions] restricted list covers this app; only a change to the config "
                + "file lifts it, no photoctl command does"
        case .notDetermined, .authorized, .limited:
            let waiting = record.pending ? "a request is waiting for the owner; " : ""
            return waiting + "ask with io.photod.Authorization.RequestAuthorization (a script: photoctl request "
                + "--reason TEXT), then the owner answers with: photoctl permissions prompt"
        }
    }

    /// What an app allowed to add photos may see of the library (an add-only app: nothing), or
    /// `AuthorizationRequired`, with its add-only status and how to ask, for one that may not add.
    func addAccess(for caller: Caller) async throws -> LibraryAccess {
        guard case .app(let identity) = caller else { return try await access(for: caller) }
        let record = await authorizer.record(for: identity)
        guard record.mayAdd else {
            let status = record.effectiveStatus(at: .addOnly)
            let hint = switch status {
            case .denied: AuthorizationMachine.resetHint(for: record.app, uid: record.uid, level: .addOnly)
            case .restricted: Self.hint(for: record)
            default: "ask with io.photod.Authorization.RequestAuthorization, level addOnly (a script: photoctl "
                + "request --level add --reason TEXT), then the owner answers with: photoctl permissions prompt"
            }
            throw VarlinkError(LibraryInterface.Error.authorizationRequired, parameters: AuthorizationRequiredError(
                status: status.rawValue, app: record.app, hint: hint))
        }
        switch record.visibility {
        case .all: return .everything
        case .selection(let assets, let groups, let fallback):
            return .selection(selection(assets: assets, groups: groups, fallback: fallback))
        case .none: return .selection(StoreSelection(groupKeys: [], ids: []))
        }
    }

    /// What a method open to any identified app may see through the caller's access: the owner
    /// everything, an app nothing (the method decides what it shows); an unidentified caller is refused.
    func identifiedAccess(for caller: Caller) throws -> LibraryAccess {
        switch caller {
        case .owner: return .everything
        case .unidentified(let reason): throw Self.unidentified(reason: reason)
        case .app: return .selection(StoreSelection(groupKeys: [], ids: []))
        }
    }

    /// The refusal for a caller photod could not identify.
    static func unidentified(reason: String) -> VarlinkError {
        VarlinkError(LibraryInterface.Error.authorizationRequired, parameters: AuthorizationRequiredError(
            status: AuthorizationStatus.notDetermined.rawValue, app: Caller.unidentified(reason: reason).appID,
            hint: "photod could not tell which program this is (\(reason)); it refuses rather than guesses"))
    }

    /// `OwnerOnly` for a method only the owner may call.
    static func ownerOnly(_ method: String, interface: String) -> VarlinkError {
        let name = interface == AuthorizationInterface.name
            ? AuthorizationInterface.Error.ownerOnly : LibraryInterface.Error.ownerOnly
        return VarlinkError(name, parameters: OwnerOnlyError(
            hint: "\(method) is for the library's owner: run photoctl (installed next to photod) or add the "
                + "program to [permissions] trusted in photod.toml"))
    }
}
