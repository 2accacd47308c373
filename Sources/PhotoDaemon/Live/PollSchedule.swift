import FileSystem

/// When each polled folder is next due: the poll loop's state, a value that is told the time
/// rather than reading a clock, so its decisions are tested without sleeping.
///
/// Each folder keeps its own interval (its root's) and its own budget: a pass may take a
/// quarter of its interval at most, after a longer one that folder's next wait is
/// `budgetFactor` times the pass, while every other folder keeps its pace.
struct PollSchedule: Sendable, Equatable {
    typealias Instant = ContinuousClock.Instant

    /// Passes may take this share of a folder's time at most, so one huge share cannot keep a core busy.
    static let budgetFactor = 4

    /// One polled folder's pace and next pass.
    struct Slot: Sendable, Equatable {
        var interval: Duration
        var due: Instant
    }

    /// What the poll loop does next.
    enum Action: Sendable, Equatable {
        /// Poll these folders now, one after another, longest overdue first.
        case poll([PathBytes])
        /// Nothing is due: sleep until then, and look again.
        case sleep(until: Instant)
    }

    /// Every folder polled, by path.
    private(set) var slots: [PathBytes: Slot] = [:]

    /// Takes in the folders polled as last surveyed: a new one is first due one interval from
    /// `now` (its root's reconcile or the mount's arrival has just compared it), a gone one is
    /// dropped, and one whose interval shrank is due no later than one new interval from `now`.
    mutating func track(_ folders: [(path: PathBytes, interval: Duration)], now: Instant) {
        var kept: [PathBytes: Slot] = [:]
        for (path, interval) in folders {
            guard var slot = slots[path] else {
                kept[path] = Slot(interval: interval, due: now + interval)
                continue
            }
            slot.interval = interval
            slot.due = min(slot.due, now + interval)
            kept[path] = slot
        }
        slots = kept
    }

    /// The folders due at `now`, or how long to sleep: until the first is due, at most
    /// `longest`, so a folder surveyed meanwhile is taken in within it.
    func next(now: Instant, longest: Duration) -> Action {
        let due = slots.filter { $0.value.due <= now }
            .sorted { ($0.value.due, $0.key.description) < ($1.value.due, $1.key.description) }
        if !due.isEmpty { return .poll(due.map(\.key)) }
        let first = slots.values.map(\.due).min() ?? now + longest
        return .sleep(until: min(first, now + longest))
    }

    /// Schedules `path`'s next pass after one that took `spent` and ended at `now`; returns the
    /// wait when it is longer than the interval because the pass went over its budget. A pass
    /// that `waited` on a mount that stopped answering cost nothing but that wait, and keeps
    /// the usual pace.
    mutating func finished(_ path: PathBytes, spent: Duration, waited: Bool, now: Instant) -> Duration? {
        guard var slot = slots[path] else { return nil }
        let budgeted = spent * Self.budgetFactor
        let delayed = !waited && budgeted > slot.interval
        slot.due = now + (delayed ? budgeted : slot.interval)
        slots[path] = slot
        return delayed ? budgeted : nil
    }

    /// Schedules `path` one interval from `now` without a pass: it did not answer, or its pass failed.
    mutating func skipped(_ path: PathBytes, now: Instant) {
        guard let interval = slots[path]?.interval else { return }
        slots[path]?.due = now + interval
    }
}
