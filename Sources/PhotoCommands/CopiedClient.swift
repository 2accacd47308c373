#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient

/// photoctl run from somewhere other than beside photod: photod takes only the photoctl
/// installed next to it for the library's owner, so a copy (in ~/bin, a build folder) is an
/// app, and its owner commands are refused. Said plainly, instead of the app's hints.
enum CopiedClient {
    /// The message for `error` when it is photod refusing an owner command of this photoctl
    /// as an app's; nil for any other error, and when photoctl acted as an app on purpose.
    static func explanation(of error: PhotoClientError, actingAsOwner: Bool) -> String? {
        guard actingAsOwner,
              error.isRefusal(named: LibraryInterface.Error.ownerOnly)
                || error.isRefusal(named: AuthorizationInterface.Error.ownerOnly)
                || error.isRefusal(named: LibraryInterface.Error.authorizationRequired)
        else { return nil }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "photoctl"
        return "photoctl: this photoctl (\(me)) is not the one installed next to photod, so photod takes it for "
            + "an app, not the library's owner: run the photoctl beside photod, or add exe:\(me) to "
            + "[permissions] trusted in photod.toml"
    }
}
