#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import PhotoAPI

extension AuthorizationMachine {
    /// The hint a denied answer carries: the command with which the owner lets the app ask again.
    /// Another user's app is named with its uid too, since grants are kept per (uid, app) and the
    /// same id of two users would otherwise be ambiguous.
    static func resetHint(for app: String, uid: UInt32 = getuid(), level: AccessLevel = .readWrite) -> String {
        let who = uid == getuid() ? shellQuoted(app) : "\(shellQuoted(app)) --uid \(uid)"
        let option = level == .addOnly ? " --level add" : ""
        let what = level == .addOnly ? "adding photos" : "access"
        return "the owner denied \(what); to let the app ask again, run: photoctl permissions reset \(who)\(option)"
    }

    /// The app id as one shell word, so the hint can be pasted as it is even when the id is
    /// an interpreter and script path with spaces.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-_./:@%+=,".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
