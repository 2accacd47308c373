import PhotoAPI
import VarlinkCore

/// The local end `photoctl bridge` relays: photod's socket, trusted exactly as every other
/// client of photoctl's trusts it.
public enum BridgeSocket {
    /// Connects to photod at `socketPath` after `PhotoClient.connect`'s checks (private runtime
    /// folders, a server running as this user or `serviceUser`), and returns the connected
    /// socket for the caller to relay and close. Nothing is sent.
    public static func open(
        socketPath: String, serviceUser: UInt32?, runtimeDirectory: String = DefaultPaths().runtimeDirectory
    ) throws(PhotoClientError) -> Int32 {
        let client = try OriginalsClient.blockingConnection(
            socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory, timeout: .seconds(30))
        guard let descriptor = client.takeSocketDescriptor() else {
            throw .unreachable(socket: socketPath, reason: "the connection closed at once")
        }
        return descriptor
    }
}
