import Posix
import Synchronization

/// The pipes photod is filling with originals for apps: at most `perCaller` per app and `total`
/// in all, each on a thread of its own, so an app that opens large originals and never reads
/// them holds a bounded number of threads and descriptors, each for at most `idleTimeout`.
final class OriginalFeeds: Sendable {
    /// Pipes one app may have being filled at once.
    static let perCaller = 2
    /// Pipes being filled at once, all apps together.
    static let total = 32
    /// How long a feed waits on a reader that takes nothing before it gives up.
    static let idleTimeout = Duration.seconds(30)

    private let active = Mutex<[String: Int]>([:])

    /// A slot for one feed.
    final class Ticket: Sendable {
        /// The feed this slot runs.
        let feed = PipeFeed()
        private let owner: OriginalFeeds
        private let caller: String
        private let released = Mutex(false)

        fileprivate init(owner: OriginalFeeds, caller: String) {
            self.owner = owner
            self.caller = caller
        }

        /// Gives the slot back (once; later calls do nothing).
        func release() {
            guard released.withLock({ done in defer { done = true }; return !done }) else { return }
            owner.active.withLock { active in
                active[caller, default: 1] -= 1
                if active[caller] == 0 { active[caller] = nil }
            }
        }
    }

    /// A slot for `caller`, or nil when it or everyone together has all they may.
    func admit(_ caller: String) -> Ticket? {
        let admitted = active.withLock { active in
            guard active[caller, default: 0] < Self.perCaller, active.values.reduce(0, +) < Self.total else { return false }
            active[caller, default: 0] += 1
            return true
        }
        return admitted ? Ticket(owner: self, caller: caller) : nil
    }

    /// Feeds running now, all apps together.
    var count: Int { active.withLock { $0.values.reduce(0, +) } }
}
