import PhotoAPI
import Store
import Varlink

/// The one asset a caller asked for, as far as it may see it.
struct VisibleAsset: Sendable {
    let store: Store

    /// The asset `id`, or `AssetNotFound` for an id that does not exist and, the same way and
    /// without touching the store, for one the caller may not see.
    func find(_ id: String, _ access: LibraryAccess) async throws -> StoredAsset {
        let found: StoredAsset?
        switch access {
        case .everything:
            found = try await store.assets(ids: [id]).first
        case .selection(let selection):
            // The same path as GetAssets: a hidden id and an unknown one are both absent from
            // the visible set, so the reply and its timing cannot tell them apart.
            let visible = try await store.visibleIDs(in: selection)
            found = visible.contains(id) ? try await store.assets(ids: [id]).first : nil
        }
        guard let found else {
            throw VarlinkError(LibraryInterface.Error.assetNotFound, parameters: AssetNotFoundError(id: id))
        }
        return found
    }
}
