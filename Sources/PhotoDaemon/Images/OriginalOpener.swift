import FileSystem
import Metadata
import PhotoAPI
import Store
import Varlink

/// `OpenOriginal`: the original file as a read-only descriptor passed with the reply, so an app
/// that cannot see the folder reads exactly the files it was allowed, and nothing else.
struct OriginalOpener: Sendable {
    let assets: VisibleAsset

    /// What a client that did not offer to receive descriptors is told.
    static let descriptorsHint = "OpenOriginal answers with a file descriptor passed over the socket (SCM_RIGHTS); "
        + "a client that receives them (recvmsg with a control buffer) sets acceptFileDescriptors: true. "
        + "One that cannot gets the pixels with io.photod.Library.RequestImage instead"

    /// Opens the asset's file and replies with its descriptor (index 0) and its facts.
    func open(_ parameters: OpenOriginalParameters, access: LibraryAccess, replier: VarlinkReplier) async throws {
        guard parameters.acceptFileDescriptors == true else {
            throw VarlinkError(LibraryInterface.Error.fileDescriptorsRequired,
                               parameters: FileDescriptorsRequiredError(hint: Self.descriptorsHint))
        }
        let asset = try await assets.find(parameters.id, access)
        // Opened fresh through real folders only (O_NOFOLLOW at every step), read-only: the
        // descriptor grants reading this one file and nothing about the folder around it.
        let file: OpenFile
        switch AssetFile.open(asset, for: access) {
        case .success(let opened): file = opened
        case .failure(let error):
            throw VarlinkError(LibraryInterface.Error.imageUnavailable, parameters: ImageUnavailableError(
                id: parameters.id, reason: "the file cannot be opened (\(error.reason))"))
        }
        let name = AssetMapper.wirePath(AssetMapper.lastComponent(of: asset.path))
        let reply = OpenOriginalReply(
            fileDescriptor: 0, name: name.text, nameBytes: name.bytes, size: Int(file.info.size),
            modified: ISOTime.utcString(nanoseconds: file.info.mtimeNs), format: asset.content.format)
        try await replier.reply(reply, fileDescriptors: [file.fileDescriptor])
    }
}
