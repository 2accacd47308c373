import CSystemd
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Sockets the service manager passed (socket activation, `sd_listen_fds_with_names`).
public enum SystemdSockets {
    /// What systemd passed, by name (`FileDescriptorName=`; "unknown" when unnamed).
    public struct Passed: Sendable, Equatable {
        /// The open listening socket.
        public let descriptor: Int32
        /// Its `FileDescriptorName=`.
        public let name: String
    }

    /// Every passed socket, once: the environment variables are unset so children do not
    /// inherit them, and the descriptors are marked close-on-exec.
    public static func takeAll() -> [Passed] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return [] }
        defer {
            for index in 0..<Int(count) { free(names?[index]) }
            free(names)
        }
        return (0..<Int(count)).map { index in
            let descriptor = SD_LISTEN_FDS_START + Int32(index)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let name = names?[index].map { String(cString: $0) } ?? "unknown"
            return Passed(descriptor: descriptor, name: name)
        }
    }

    /// The passed socket named `name`; with a single unnamed socket, that one.
    public static func take(named name: String) -> Passed? {
        let passed = takeAll()
        if let named = passed.first(where: { $0.name == name }) { return named }
        if passed.count == 1, passed[0].name == "unknown" { return passed[0] }
        return nil
    }
}
