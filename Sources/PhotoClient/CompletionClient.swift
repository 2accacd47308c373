import PhotoAPI
import VarlinkCore

/// One blocking `io.photod.Library.Complete` call, for shell completion: the shell runs
/// photoctl as a key is pressed, and its completion closures are synchronous, so the answer
/// must come at once or not at all.
public enum CompletionClient {
    /// photod's candidates for `kind` and `prefix`. The socket is trusted exactly as
    /// `PhotoClient.connect` trusts one (nothing is sent to a server of another user), and each
    /// send or receive waits at most `timeout`.
    public static func complete(
        kind: CandidateKind, prefix: String, limit: Int? = nil, socketPath: String = DefaultPaths().socket,
        serviceUser: UInt32? = nil, runtimeDirectory: String = DefaultPaths().runtimeDirectory,
        timeout: Duration = .milliseconds(500)
    ) throws(PhotoClientError) -> CompleteReply {
        let connection = try OriginalsClient.blockingConnection(
            socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory, timeout: timeout)
        defer { connection.close() }
        let parameters = CompleteParameters(kind: kind, prefix: prefix, limit: limit)
        CallCheck.check(LibraryMethods.complete, parameters)
        do {
            return try connection.call(LibraryMethods.complete.qualifiedName, parameters, returning: CompleteReply.self).reply
        } catch {
            throw .calling(failedWith: error)
        }
    }
}
