import FileSystem
import Store

/// Opens the file behind an asset a caller asked for, and only while it is still that asset's file.
///
/// A limited app's grant names an asset, not a path. Between a file being replaced at a granted
/// path (the owner moving a hidden photo over it) and the index catching up, the path holds
/// another photo: a limited caller is then refused, never handed the other file's bytes under the
/// granted id. A file rewritten in place (same device and inode) is still the asset; a file put
/// in its place is not until the index says so.
enum AssetFile {
    /// Opens `asset`'s file through real folders only (`SafeOpener`); for a limited caller, checks
    /// that the file opened is the one the asset was indexed from.
    static func open(_ asset: StoredAsset, for access: LibraryAccess) -> Result<OpenFile, AssetFileError> {
        switch SafeOpener().openRegularFile(asset.path) {
        case .failure(let error):
            return .failure(AssetFileError(reason: error.reason))
        case .success(let file):
            if case .selection = access, !isIndexedFile(file.info, of: asset) {
                return .failure(AssetFileError(
                    reason: "another file is at the photo's path since it was indexed; try again once photod has read it"))
            }
            return .success(file)
        }
    }

    /// Whether `info` describes the file `asset` was indexed from: the same device and inode.
    static func isIndexedFile(_ info: FileInfo, of asset: StoredAsset) -> Bool {
        info.device == asset.stamp.device && info.inode == asset.stamp.inode
    }
}

/// Why an asset's file was not opened, in words for the caller.
struct AssetFileError: Error {
    /// The reason, safe to show to the caller.
    let reason: String
}
