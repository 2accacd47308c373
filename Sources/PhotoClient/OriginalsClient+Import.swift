import PhotoAPI
import VarlinkCore

extension OriginalsClient {
    /// Adds the photo open as `descriptor` (a file or a pipe) to the library under `name`, with
    /// `description` written into it; the descriptor stays the caller's. Refusals come as the
    /// daemon's errors (`NotAnImage`, `TooLarge`, `DescriptionRefused`, `AuthorizationRequired`).
    /// `folder` (the owner's only) puts it there instead of `[import] folder`.
    public func importPhoto(descriptor: Int32, name: String?, description: String?, folder: String? = nil)
        throws(PhotoClientError) -> ImportReply {
        let parameters = ImportParameters(name: name, description: description, acceptFileDescriptors: true, folder: folder)
        CallCheck.check(LibraryMethods.importPhoto, parameters)
        return try withConnection { connection in
            try connection.call(LibraryMethods.importPhoto.qualifiedName, parameters, passing: [descriptor],
                                returning: ImportReply.self)
        }
    }
}
