import NIOCore
import Synchronization

/// Closes a connection that stays without a call in flight for `timeout`.
///
/// Armed while the connection waits for its next call and disarmed while a call runs, so a
/// subscription or a request waiting for the owner is never idle. Bytes that do not complete a
/// call do not re-arm it: a client trickling one byte at a time is as idle as a silent one.
final class IdleTimer: Sendable {
    private let channel: any Channel
    private let timeout: TimeAmount
    private let onExpiry: @Sendable () -> Void
    private let scheduled = Mutex<Scheduled<Void>?>(nil)

    /// A disarmed timer; `onExpiry` runs (then the channel closes) when it fires.
    init(channel: any Channel, timeout: TimeAmount, onExpiry: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.timeout = timeout
        self.onExpiry = onExpiry
    }

    /// Starts the countdown afresh.
    func arm() {
        let channel = self.channel
        let onExpiry = self.onExpiry
        let task = channel.eventLoop.scheduleTask(in: self.timeout) {
            onExpiry()
            channel.close(promise: nil)
        }
        self.scheduled.withLock { scheduled in
            defer { scheduled = task }
            return scheduled
        }?.cancel()
    }

    /// Stops the countdown.
    func disarm() {
        self.scheduled.withLock { scheduled in
            defer { scheduled = nil }
            return scheduled
        }?.cancel()
    }
}
