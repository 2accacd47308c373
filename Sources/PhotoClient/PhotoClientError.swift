#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import VarlinkCore

/// Why a call to photod failed, worded for the person who has to act on it.
public enum PhotoClientError: Error, CustomStringConvertible, Sendable {
    /// Nothing answers on the socket.
    case unreachable(socket: String, reason: String)
    /// The socket's folder, or the server behind it, belongs to a user photoctl does not trust;
    /// nothing was sent.
    case untrustedSocket(socket: String, reason: String)
    /// The daemon answered with an error.
    case daemon(VarlinkError)
    /// The connection broke or the reply was not understood.
    case protocolFailure(String)
    /// photod closed the connection before its answer was done: it stopped (cleanly, as on
    /// SIGTERM, or by crashing); a stream (watch) ends here.
    case stopped
    /// `photoctl --host`: ssh could not reach the host, log in, or run photoctl there; ssh's
    /// own message went to stderr before this.
    case remoteUnreachable(host: String, command: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let socket, let reason):
            return """
                cannot reach photod at \(socket) (\(reason)).
                Start it with `photod` (or `systemctl --user start photod.socket`), or point photoctl at \
                its socket with --socket PATH or PHOTOD_SOCKET.
                """
        case .untrustedSocket(let socket, let reason):
            return """
                not using photod's socket \(socket): \(reason).
                Another user may be serving this socket in place of photod. When photod runs as a \
                system service, name its user with --service-user NAME or PHOTOD_SERVICE_USER.
                """
        case .daemon(let error):
            return Self.explain(error)
        case .protocolFailure(let reason):
            return "photod's reply was not understood: \(reason)"
        case .stopped:
            return "photod stopped"
        case .remoteUnreachable(let host, let command, let reason):
            return "cannot reach photod on \(host): \(reason); the command run was: \(command)"
        }
    }

    /// Whether photod refused the call with the interface error `name`.
    public func isRefusal(named name: String) -> Bool {
        guard case .daemon(let refusal) = self else { return false }
        return refusal.name == name
    }

    /// A failed connect: a server the kernel says is not trusted, else nothing to reach.
    static func connecting(_ socket: String, failedWith error: any Error) -> PhotoClientError {
        if let error = error as? VarlinkUntrustedServerError {
            return .untrustedSocket(socket: socket, reason: error.description)
        }
        return .unreachable(socket: socket, reason: "\(error)")
    }

    /// A failed call: the daemon's error reply, else a broken or garbled conversation.
    static func calling(failedWith error: any Error) -> PhotoClientError {
        if let error = error as? PhotoClientError { return error }
        if let error = error as? VarlinkError { return .daemon(error) }
        if Self.isHangUp(error) { return .stopped }
        return .protocolFailure("\(error)")
    }

    /// Whether `error` is the server's end of the conversation: the socket read end of file
    /// (a clean stop closes every connection unanswered) or was reset (a crash).
    private static func isHangUp(_ error: any Error) -> Bool {
        if let error = error as? VarlinkClientError { return error == .disconnected }
        if case .socketFailed(let code, _) = error as? VarlinkFileDescriptorError {
            return code == ECONNRESET || code == EPIPE
        }
        return false
    }

    private static func explain(_ error: VarlinkError) -> String {
        switch error.name {
        case LibraryInterface.Error.groupNotFound:
            let details = error.parameters(GroupNotFoundError.self)
            return "no group named \"\(details?.name ?? "?")\""
                + DidYouMean.phrase(details?.closest ?? [], orSee: "photoctl groups")
        case LibraryInterface.Error.invalidCursor:
            return "the cursor is not valid for this listing; start again without --cursor"
        case LibraryInterface.Error.assetNotFound:
            return "no asset with id \(error.parameters(AssetNotFoundError.self)?.id ?? "?")"
        case LibraryInterface.Error.authorizationRequired:
            let details = error.parameters(AuthorizationRequiredError.self)
            return "not authorized (\(details?.status ?? "?")): \(details?.hint ?? "")"
        case LibraryInterface.Error.ownerOnly, AuthorizationInterface.Error.ownerOnly:
            // The hint says whose the method is; saying "only the owner" before it said it twice.
            return error.parameters(OwnerOnlyError.self)?.hint ?? "only the library's owner may do that"
        case AuthorizationInterface.Error.unknownApp:
            return "no app matches \"\(error.parameters(UnknownAppError.self)?.app ?? "?")\" (see `photoctl permissions`)"
        case AuthorizationInterface.Error.restricted:
            return "\(error.parameters(UnknownAppError.self)?.app ?? "the app") is restricted by the config's "
                + "[permissions] restricted list; only a change to photod.toml lifts it"
        case AuthorizationInterface.Error.invalidDecision:
            return "decision refused: \(error.parameters(InvalidDecisionError.self)?.reason ?? "?")"
        case AuthorizationInterface.Error.confirmationRequired:
            let details = error.parameters(ConfirmationRequiredError.self)
            return "allowing \(details?.app ?? "the app") needs confirmation: \(details?.warning ?? "")"
        case AuthorizationInterface.Error.noSuchGroup:
            let details = error.parameters(NoSuchGroupError.self)
            return "no group named \"\(details?.group ?? "?")\"" + closest(details?.closest ?? [], or: "photoctl groups")
        case AuthorizationInterface.Error.noSuchAsset:
            let details = error.parameters(NoSuchAssetError.self)
            return "no asset with id \(details?.asset ?? "?")" + closest(details?.closest ?? [], or: "photoctl list")
        case LibraryInterface.Error.imageTooLarge:
            return "image too large: \(error.parameters(ImageTooLargeError.self)?.hint ?? "?")"
        case LibraryInterface.Error.imageUnavailable:
            let details = error.parameters(ImageUnavailableError.self)
            return "no image of \(details?.id ?? "?"): \(details?.reason ?? "?")"
        case LibraryInterface.Error.imageBusy:
            return "photod is busy: \(error.parameters(ImageBusyError.self)?.hint ?? "too many image requests waiting")"
        case LibraryInterface.Error.fileDescriptorsRequired:
            return "photod must pass a file descriptor: \(error.parameters(FileDescriptorsRequiredError.self)?.hint ?? "")"
        case LibraryInterface.Error.rootNotFound:
            let details = error.parameters(RootNotFoundError.self)
            let roots = (details?.roots ?? []).map { "\n  \($0)" }.joined()
            return "\(details?.root ?? "?") is not a root of the library; its roots are:" + roots
        case LibraryInterface.Error.indexUnwritable:
            return error.parameters(IndexUnwritableError.self)?.reason ?? "the index cannot be written now"
        case "org.varlink.service.InvalidParameter":
            return "invalid value for \"\(error.parameters(InvalidParameterError.self)?.parameter ?? "?")\""
        default:
            return "photod answered \(error.name) \(String(decoding: error.parametersJSON, as: UTF8.self))"
        }
    }

    /// "; closest: A, B", or where to look when nothing is near.
    private static func closest(_ names: [String], or command: String) -> String {
        names.isEmpty ? " and none is near it (see `\(command)`)"
            : "; closest: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
