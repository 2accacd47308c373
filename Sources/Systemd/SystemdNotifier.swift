import CSystemd
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tells the service manager about the daemon's state (`sd_notify`): readiness, a status line,
/// reloading, stopping, and watchdog keep-alives. Without `NOTIFY_SOCKET` every call is a no-op.
public struct SystemdNotifier: Sendable {
    /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
    public let isActive: Bool

    /// A notifier for this process's environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        isActive = !(environment["NOTIFY_SOCKET"] ?? "").isEmpty
    }

    /// Sends `KEY=value` lines; true when the manager received them.
    @discardableResult
    public func send(_ assignments: [String]) -> Bool {
        guard isActive else { return false }
        return sd_notify(0, assignments.joined(separator: "\n")) > 0
    }

    /// `READY=1` with a status line.
    public func ready(status: String) { send(["READY=1", "STATUS=" + status]) }

    /// The status line `systemctl status` shows.
    public func status(_ text: String) { send(["STATUS=" + text]) }

    /// `RELOADING=1` with the monotonic time the reload started, as `Type=notify-reload` wants.
    public func reloading(status: String) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        send(["RELOADING=1", "MONOTONIC_USEC=\(microseconds)", "STATUS=" + status])
    }

    /// `STOPPING=1`: the daemon is shutting down cleanly.
    public func stopping(status: String) { send(["STOPPING=1", "STATUS=" + status]) }

    /// `WATCHDOG=1`: the daemon is alive.
    public func watchdog() { send(["WATCHDOG=1"]) }

    /// How often the manager expects `WATCHDOG=1` (`WatchdogSec=`), or nil when it expects none.
    public func watchdogInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }
}
