import PhotoAPI
import Store

/// Assets by path, as far as a caller may see them (`GetAssets` with `paths`).
struct PathLookup: Sendable {
    let store: Store

    /// The assets at these paths (exactly as indexed), keyed by the path as given; paths not
    /// indexed, or not visible to the caller, are absent.
    func assets(at paths: [String], _ access: LibraryAccess) async throws -> [String: StoredAsset] {
        let wanted = paths.map { Array($0.utf8) }
        let found: [StoredAsset]
        switch access {
        case .everything:
            found = try await store.assets(paths: wanted)
        case .selection(let selection):
            // As for ids (`VisibleAsset`): the app's own photos are listed first and the paths
            // matched against them in memory, so a hidden path and one that is not indexed take
            // the same way and the same time.
            let visible = try await store.visibleIDsByPath(in: selection)
            found = try await store.assets(ids: wanted.compactMap { visible[$0] })
        }
        var byPath: [String: StoredAsset] = [:]
        for asset in found { byPath[String(decoding: asset.path, as: UTF8.self)] = asset }
        return byPath
    }
}
