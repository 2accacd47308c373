import FileSystem
import Synchronization

/// Covers folder trees with watches within a budget; folders past the budget are listed so the
/// daemon can poll them.
public final class WatchSet: Sendable {
    private let inotify: Inotify
    private let budget: Int
    private let coverage = Mutex(WatchCoverage())

    /// Creates a set using `inotify`; `budget` is how many watches this process may use (the daemon
    /// computes max_user_watches minus a margin, or a configured value).
    public init(inotify: Inotify, budget: Int) {
        self.inotify = inotify
        self.budget = budget
    }

    /// Watches `folder` and every non-hidden folder below it (not following symlinks). Returns the
    /// folders that could not be watched because the budget (or the kernel's ENOSPC) ran out;
    /// other failures (vanished folder) are skipped.
    ///
    /// Breadth first, so the budget goes to the upper levels. Each folder is watched before it is
    /// listed (a subfolder made meanwhile still shows up as an event), and the lock is held per
    /// folder, not for the whole walk, so decoding goes on while a large tree is covered.
    /// Subfolders `skipping` accepts (ignored folders) are neither watched nor listed.
    public func watchTree(_ folder: PathBytes, skipping: (PathBytes) -> Bool = { _ in false }) -> [PathBytes] {
        coverage.withLock { $0.beginCover(folder) }
        var skipped: [PathBytes] = []
        var pending: [PathBytes] = [folder]
        var next = 0
        var exhausted = false
        while next < pending.count {
            let current = pending[next]
            next += 1
            let outcome = coverage.withLock {
                $0.cover(current, budget: budget, exhausted: &exhausted, inotify: inotify)
            }
            switch outcome {
            case .watched: break
            case .overBudget: skipped.append(current)
            case .skipped: continue
            }
            guard case .success(let children) = FileSystem.subdirectories(of: current) else { continue }
            pending += children.filter { !skipping($0) }
        }
        return skipped
    }

    /// Watches one folder, as a walk that lists the tree reaches it (before it lists it); false
    /// when it is left unwatched for lack of budget (listed in `unwatched`) or was skipped.
    @discardableResult
    public func watchFolder(_ folder: PathBytes) -> Bool {
        var exhausted = false
        let outcome = coverage.withLock { $0.cover(folder, budget: budget, exhausted: &exhausted, inotify: inotify) }
        if case .watched = outcome { return true }
        return false
    }

    /// Stops watching `folder` and everything below it (inotify_rm_watch each).
    public func unwatchTree(_ folder: PathBytes) {
        coverage.withLock { $0.uncover(folder, inotify: inotify) }
    }

    /// Feeds a batch through the shared decoder (thread-safe).
    public func decode(_ events: [WatchEvent], now: ContinuousClock.Instant) -> [WatchAction] {
        coverage.withLock { coverage in
            let actions = coverage.decoder.decode(events, now: now)
            coverage.follow(actions, inotify: inotify)
            return actions
        }
    }

    /// Emits held MOVED_FROMs whose grace has passed (see `WatchEventDecoder.expire(now:)`).
    public func expire(now: ContinuousClock.Instant) -> [WatchAction] {
        coverage.withLock { coverage in
            let actions = coverage.decoder.expire(now: now)
            coverage.follow(actions, inotify: inotify)
            return actions
        }
    }

    /// When `expire` should next be called; nil when nothing is held.
    public var nextDeadline: ContinuousClock.Instant? {
        coverage.withLock { $0.decoder.nextDeadline }
    }

    /// How many folders are watched.
    public var watchCount: Int {
        coverage.withLock { $0.decoder.watchCount }
    }

    /// The wd watching exactly `path`, if any.
    func watch(at path: PathBytes) -> Int32? {
        coverage.withLock { $0.decoder.watch(at: path) }
    }

    /// Folders currently not watched for lack of budget.
    public var unwatched: [PathBytes] {
        coverage.withLock { $0.unwatched }
    }

    /// Drops every watch (inotify_rm_watch) and forgets all state, e.g. before re-covering after
    /// an overflow.
    public func reset() {
        coverage.withLock { $0.reset(inotify: inotify) }
    }

    /// The watch budget from the kernel: /proc/sys/fs/inotify/max_user_watches minus a margin for
    /// other programs (max(256, 10%)).
    public static func kernelBudget() -> Int {
        let limit = Inotify.maxUserWatches() ?? defaultLimit
        return max(0, limit - max(256, limit / 10))
    }

    /// The kernel's historical default, used when /proc cannot be read.
    private static let defaultLimit = 8192
}
