#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import PhotoAPI
import Synchronization
import Varlink

/// Who is on the other end of a connection, decided once when it connects.
enum Caller: Sendable, Equatable {
    /// The library's owner: photoctl next to the running photod, or a trusted executable.
    case owner(AppIdentity)
    /// Any other app; what it sees depends on its authorization.
    case app(AppIdentity)
    /// The kernel would not say who it is, or the process was gone before it could be identified.
    case unidentified(reason: String)

    /// The caller of a connection, as the server's `attach` hook recorded it.
    static func of(_ context: VarlinkConnectionContext) -> Caller {
        context.attachment as? Caller ?? .unidentified(reason: "the connection carries no identity")
    }

    /// Whether this is the owner.
    var isOwner: Bool {
        if case .owner = self { return true }
        return false
    }

    /// The app id, or a stand-in for logs and errors when there is none.
    var appID: String {
        switch self {
        case .owner(let identity), .app(let identity): identity.id
        case .unidentified: "unidentified"
        }
    }
}

/// Decides who a connecting process is, by the rules in the README ("How photod knows who is asking").
final class CallerResolver: Sendable {
    /// The photoctl that counts as the owner: the one installed next to this photod.
    let ownerClient: String
    /// The photod-notify executables that count as the owner (desktop alerts): beside this
    /// photod, or in its `../libexec/photod`. It never acts for another program.
    let notifiers: [String]
    /// Trusted app ids or executable paths (`*` matches any run of characters).
    var trusted: [String] {
        get { trustedList.withLock { $0 } }
        set { trustedList.withLock { $0 = newValue } }
    }
    private let trustedList: Mutex<[String]>
    /// photod's own uid; only processes of this user can be the owner.
    let daemonUID: UInt32
    let procRoot: String

    /// A resolver for this process: photoctl beside `/proc/self/exe`, the config's trusted list.
    convenience init(trusted: [String], procRoot: String = "/proc") {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: procRoot + "/self/exe"))
            ?? CommandLine.arguments.first ?? "photod"
        let folder = AppIdentityPath.folder(of: AppIdentityPath.strippingDeleted(executable).path)
        let prefix = AppIdentityPath.folder(of: folder)
        self.init(ownerClient: folder + "/photoctl",
                  notifiers: [folder + "/photod-notify", prefix + "/libexec/photod/photod-notify"],
                  trusted: trusted, daemonUID: getuid(), procRoot: procRoot)
    }

    /// A resolver with everything given (for tests).
    init(ownerClient: String, notifiers: [String] = [], trusted: [String], daemonUID: UInt32, procRoot: String) {
        self.ownerClient = ownerClient
        self.notifiers = notifiers
        self.trustedList = Mutex(trusted)
        self.daemonUID = daemonUID
        self.procRoot = procRoot
    }

    /// The caller behind a connection's credentials; never guessed when /proc cannot tell.
    func resolve(_ peer: VarlinkPeer?) -> Caller {
        guard let peer else { return .unidentified(reason: "the kernel gave no peer credentials") }
        switch AppIdentityResolver.identify(pid: peer.pid, uid: peer.uid, procRoot: procRoot) {
        case .failure(.unreadable(_, "exe", _)) where peer.uid != daemonUID:
            // Another user's process outside any app unit (a system service): its exe is not
            // ours to read, and its uid is all the kernel vouches for.
            return .app(.unknownExecutable(uid: peer.uid))
        case .failure(let error):
            return .unidentified(reason: error.description)
        case .success(let identity) where identity.id.utf8.count > App.MaximumBytes.id:
            // The owner could not name it (APP is at most this long), nor would its record fit.
            return .unidentified(reason: "its app id would be \(identity.id.utf8.count) bytes, over the "
                + "\(App.MaximumBytes.id) photod keeps")
        case .success(let identity):
            guard identity.uid == daemonUID else { return .app(identity) }
            if identity.executable == ownerClient && !identity.executableDeleted {
                return actsForParent(pid: peer.pid) ? parent(of: peer) : .owner(identity)
            }
            if notifiers.contains(identity.executable) && !identity.executableDeleted { return .owner(identity) }
            return isTrusted(identity) ? .owner(identity) : .app(identity)
        }
    }

    /// Whether a trusted entry names the app id or its executable.
    func isTrusted(_ identity: AppIdentity) -> Bool {
        trustedList.withLock { $0 }.contains { entry in
            AuthorizationPolicy.glob(entry, matches: identity.id)
                || (identity.source == .executable && AuthorizationPolicy.glob(entry, matches: identity.executable))
        }
    }

    /// Whether the owner's photoctl acts as the program that ran it (`photoctl request`,
    /// `photoctl --as-app …`): unless it named itself `PhotoctlRole.owner` after parsing its
    /// own arguments. Never read from the command line, whose grammar (which options take a
    /// value) only photoctl's parser knows. Only the process can set its name, and every
    /// other name lowers what the connection may do, so nothing is gained by faking one.
    private func actsForParent(pid: Int32) -> Bool {
        let process = AppIdentityProcess(pid: pid, procRoot: procRoot)
        guard let name = try? process.text("comm") else { return true }
        return name.trimming(where: \.isNewline) != PhotoctlRole.owner.rawValue
    }

    /// The identity of the process that started `peer`, held to the same uid.
    private func parent(of peer: VarlinkPeer) -> Caller {
        let process = AppIdentityProcess(pid: peer.pid, procRoot: procRoot)
        let parentPid: Int32
        do {
            parentPid = try process.parentPid()
        } catch {
            return .unidentified(reason: error.description)
        }
        switch AppIdentityResolver.identify(pid: parentPid, uid: peer.uid, procRoot: procRoot) {
        case .failure(let error): return .unidentified(reason: error.description)
        case .success(let identity): return .app(identity)
        }
    }
}
