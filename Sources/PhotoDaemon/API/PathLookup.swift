#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import PhotoAPI
import Store
import Varlink

/// Assets by path, as far as a caller may see them (`GetAssets` with `paths` or `pathBytes`).
struct PathLookup: Sendable {
    let store: Store

    /// The assets at these paths (exact bytes, as indexed), keyed by those bytes; paths not
    /// indexed, or not visible to the caller, are absent.
    func assets(at wanted: [PathBytes], _ access: LibraryAccess) async throws -> [PathBytes: StoredAsset] {
        // A hidden path is absent as one not indexed is (`LibraryView`).
        let found = try await store.read(as: access) { try $0.assets(paths: wanted) }
        var byPath: [PathBytes: StoredAsset] = [:]
        for asset in found { byPath[asset.path] = asset }
        return byPath
    }

    /// `pathBytes` decoded: each entry base64 of at most as many bytes as the IDL lets `paths`
    /// hold, else InvalidParameter (pathBytes); the length is checked before decoding.
    static func decode(_ pathBytes: [String]) throws(VarlinkError) -> [PathBytes] {
        let longest = GetAssetsParameters.MaximumBytes.paths
        let longestEncoded = (longest + 2) / 3 * 4
        var decoded: [PathBytes] = []
        decoded.reserveCapacity(pathBytes.count)
        for entry in pathBytes {
            guard entry.utf8.count <= longestEncoded, let data = Data(base64Encoded: entry),
                  !data.isEmpty, data.count <= longest else {
                throw VarlinkError.invalidParameter("pathBytes")
            }
            decoded.append(PathBytes(Array(data)))
        }
        return decoded
    }
}
