import Posix
import Synchronization

/// The sealed copies of originals that apps hold. A copy lives in memory charged to photod for
/// as long as any process holds it, however long the app keeps it, so an app may hold at most
/// `defaultPerCaller` of them and all apps together `defaultTotal`; past that, `OriginalOpener` streams the
/// original through a pipe instead. A copy counts until the kernel says it is gone everywhere
/// (`LastReferenceWatch`), not when the app says so.
final class OriginalCopies: Sendable {
    /// How many copies, and how many bytes of them, may be held.
    struct Limits: Sendable {
        var copies: Int
        var bytes: Int

        /// Nothing held.
        static let none = Limits(copies: 0, bytes: 0)
    }

    /// What one app may hold: a viewer keeps a screenful of originals, not hundreds.
    static let defaultPerCaller = Limits(copies: 64, bytes: 256 << 20)
    /// What all apps together may hold.
    static let defaultTotal = Limits(copies: 512, bytes: 1 << 30)

    private struct Held: Sendable {
        var byWatch: [Int32: (caller: String, bytes: Int)] = [:]
        var byCaller: [String: Limits] = [:]
        var all = Limits.none

        mutating func add(_ caller: String, _ bytes: Int) {
            byCaller[caller, default: .none].copies += 1
            byCaller[caller, default: .none].bytes += bytes
            all.copies += 1
            all.bytes += bytes
        }

        mutating func remove(_ caller: String, _ bytes: Int) {
            guard var mine = byCaller[caller] else { return }
            mine.copies -= 1
            mine.bytes -= bytes
            byCaller[caller] = mine.copies <= 0 ? nil : mine
            all.copies -= 1
            all.bytes -= bytes
        }
    }

    private let watch: LastReferenceWatch?
    private let perCaller: Limits
    private let total: Limits
    private let held = Mutex(Held())

    /// A ledger with the given limits; without a `LastReferenceWatch` (no inotify) no copy can
    /// be counted back, so none is given.
    init(perCaller: Limits = OriginalCopies.defaultPerCaller, total: Limits = OriginalCopies.defaultTotal) {
        watch = try? LastReferenceWatch()
        self.perCaller = perCaller
        self.total = total
    }

    /// A place for a copy of `bytes` for `caller`, or nil when it, or all apps together, would
    /// hold more than they may. The caller fills it with `hold(_:)` or gives it back with
    /// `release()`.
    func reserve(_ caller: String, bytes: Int) -> Reservation? {
        guard let watch else { return nil }
        forgetReleased(watch)
        let admitted = held.withLock { held -> Bool in
            let mine = held.byCaller[caller] ?? .none
            guard mine.copies < perCaller.copies, mine.bytes + bytes <= perCaller.bytes,
                  held.all.copies < total.copies, held.all.bytes + bytes <= total.bytes else { return false }
            held.add(caller, bytes)
            return true
        }
        return admitted ? Reservation(ledger: self, watch: watch, caller: caller, bytes: bytes) : nil
    }

    /// What `caller` holds now, as far as the kernel has said.
    func holding(_ caller: String) -> Limits {
        if let watch { forgetReleased(watch) }
        return held.withLock { $0.byCaller[caller] ?? .none }
    }

    /// The limits one app is held to.
    var limitPerCaller: Limits { perCaller }

    private func forgetReleased(_ watch: LastReferenceWatch) {
        watch.released { gone in
            held.withLock { held in
                for wd in gone {
                    guard let copy = held.byWatch.removeValue(forKey: wd) else { continue }
                    held.remove(copy.caller, copy.bytes)
                }
            }
        }
    }

    /// One reserved copy, counted against its app until the kernel says it is gone.
    final class Reservation: Sendable {
        private let ledger: OriginalCopies
        private let watch: LastReferenceWatch
        private let caller: String
        private let bytes: Int
        private let settled = Atomic<Bool>(false)

        fileprivate init(ledger: OriginalCopies, watch: LastReferenceWatch, caller: String, bytes: Int) {
            self.ledger = ledger
            self.watch = watch
            self.caller = caller
            self.bytes = bytes
        }

        /// Counts the copy `descriptor` (still held by photod) until it is gone everywhere; false,
        /// with the place given back, when the kernel will not watch it.
        func hold(_ descriptor: Int32) -> Bool {
            guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            let watched = watch.watch(descriptor) { wd in
                ledger.held.withLock { $0.byWatch[wd] = (caller, bytes) }
            }
            if case .success = watched { return true }
            ledger.held.withLock { $0.remove(caller, bytes) }
            return false
        }

        /// Gives the place back unused (once; after `hold` it does nothing).
        func release() {
            guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return }
            ledger.held.withLock { $0.remove(caller, bytes) }
        }
    }
}
