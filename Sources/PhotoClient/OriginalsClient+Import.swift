#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import VarlinkCore

extension OriginalsClient {
    /// The most photo bytes an Import without a descriptor carries: what base64 fits in `data`'s
    /// limit (photod's ImportCall.maxDataBytes).
    public static let maxImportDataBytes = ImportParameters.MaximumBytes.data / 4 * 3

    /// Adds the photo open as `descriptor` (a file or a pipe) to the library under `name`, with
    /// `description` written into it; the descriptor stays the caller's. Refusals come as the
    /// daemon's errors (`NotAnImage`, `TooLarge`, `DescriptionRefused`, `AuthorizationRequired`).
    /// `folder` (the owner's only) puts it there instead of `[import] folder`. Over `--host`,
    /// where no descriptor crosses, the photo's bytes go in `data` instead.
    public func importPhoto(descriptor: Int32, name: String?, description: String?, folder: String? = nil)
        throws(PhotoClientError) -> ImportReply {
        guard receivesDescriptors else {
            return try importBytes(from: descriptor, name: name, description: description, folder: folder)
        }
        let parameters = ImportParameters(name: name, description: description, acceptFileDescriptors: true, folder: folder)
        CallCheck.check(LibraryMethods.importPhoto, parameters)
        return try withConnection { connection in
            try connection.call(LibraryMethods.importPhoto.qualifiedName, parameters, passing: [descriptor],
                                returning: ImportReply.self)
        }
    }

    /// Import with the photo read from `descriptor` into `data` (at most `maxImportDataBytes`;
    /// a larger one is refused here, before anything is sent).
    private func importBytes(from descriptor: Int32, name: String?, description: String?, folder: String?)
        throws(PhotoClientError) -> ImportReply {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= Self.maxImportDataBytes {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .protocolFailure("cannot read the photo (errno \(errno))")
            }
            bytes += buffer[..<got]
        }
        guard bytes.count <= Self.maxImportDataBytes else {
            // What photod would answer, said before sending it: the connection stays usable.
            let refusal = TooLargeError(limit: Self.maxImportDataBytes,
                                        hint: "over --host the photo travels in the call itself (no descriptor crosses "
                                            + "SSH); copy a larger one to the host and import it there")
            throw .daemon(VarlinkError(LibraryInterface.Error.tooLarge, parameters: refusal))
        }
        let parameters = ImportParameters(name: name, description: description,
                                          data: Data(bytes).base64EncodedString(), folder: folder)
        CallCheck.check(LibraryMethods.importPhoto, parameters)
        return try withConnection { connection in
            try connection.call(LibraryMethods.importPhoto.qualifiedName, parameters, returning: ImportReply.self).reply
        }
    }
}
