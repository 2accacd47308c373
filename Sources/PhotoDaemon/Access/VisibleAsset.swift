import PhotoAPI
import Store
import Varlink

/// The one asset a caller asked for, as far as it may see it.
struct VisibleAsset: Sendable {
    let store: Store

    /// The asset `id`, or `AssetNotFound` for an id that does not exist and, the same way, for
    /// one the caller may not see.
    func find(_ id: String, _ access: LibraryAccess) async throws -> StoredAsset {
        // The same query as GetAssets: a hidden id and an unknown one are both absent (`LibraryView`).
        guard let found = try await store.read(as: access, { try $0.assets(ids: [id]).first }) else {
            throw VarlinkError(LibraryInterface.Error.assetNotFound, parameters: AssetNotFoundError(id: id))
        }
        return found
    }
}
