import PhotoAPI
import Store
import Varlink

/// Picked photos in what an app may see: only the methods that read photos by id take them in.
extension AccessGate {
    /// The methods through which an app reads the photos picked for it (by id, never by listing).
    static let readsPicked: Set<String> = [
        LibraryMethods.getAssets.name, LibraryMethods.requestImage.name, LibraryMethods.openOriginal.name,
    ]

    /// The caller's access with the photos picked for it added (`readsPicked`'s methods only):
    /// an app with no access and no picks is refused as `access(for:)` refuses it, and a
    /// restricted app's picks wait, unused, until the policy lets go.
    func accessWithPicked(for caller: Caller) async throws -> LibraryAccess {
        guard case .app(let identity) = caller else { return try await access(for: caller) }
        let record = await authorizer.record(for: identity)
        let picked = record.status == .restricted ? [] : record.pickedIDs
        guard !picked.isEmpty else { return try await access(for: caller) }
        switch record.visibility {
        case .all:
            return .everything
        case .selection(let assets, let groups, let fallback):
            var chosen = selection(assets: assets, groups: groups, fallback: fallback)
            chosen.ids = Array(Set(chosen.ids).union(picked)).sorted()
            return .selection(chosen)
        case .none:
            return .selection(StoreSelection(groupKeys: [], ids: Array(Set(picked)).sorted()))
        }
    }
}
