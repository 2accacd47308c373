import PhotoClient
import Synchronization

/// The host `--host` reached, remembered so photoctl's last word names it: "photod on nas: …"
/// tells a failure there from one of the photod on this machine.
enum RemoteHost {
    private static let reached = Mutex<String?>(nil)

    /// Records that this run speaks to photod on `host`.
    static func note(_ host: String) {
        reached.withLock { $0 = host }
    }

    /// `message` ("photoctl: …") naming the host after "photoctl: " when photod on another host
    /// answered; as it is for a local photod, and for ssh's own failure, which names it already.
    static func naming(_ message: String, for error: PhotoClientError) -> String {
        guard let host = reached.withLock({ $0 }) else { return message }
        if case .remoteUnreachable = error { return message }
        let prefix = "photoctl: "
        guard message.hasPrefix(prefix) else { return "photod on \(host): " + message }
        return prefix + "photod on \(host): " + message.dropFirst(prefix.count)
    }
}
