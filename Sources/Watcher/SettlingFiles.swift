import FileSystem

/// Files written under a temporary name (`TemporaryName`), held back so that an editor saving
/// in place can rename its temporary file over the photo first: the rename then reaches the
/// index as one update of the photo, and the temporary file is never announced as a photo of
/// its own. A file still there when its grace is over is announced like any other.
struct SettlingFiles: Sendable {
    /// How long a file with a temporary name waits for its rename; editors rename at once, after
    /// the last write, so this only delays the rare file that keeps such a name.
    static let grace: Duration = .seconds(1)

    private struct Held: Sendable {
        var action: WatchAction
        var deadline: ContinuousClock.Instant
    }

    private var held: [PathBytes: Held] = [:]

    /// Holds `action` (a file written or arrived) about `path`. A file written again keeps its
    /// first deadline, so one written over and over is still announced in time.
    mutating func hold(_ action: WatchAction, at path: PathBytes, now: ContinuousClock.Instant) {
        let deadline = held[path]?.deadline ?? now + Self.grace
        held[path] = Held(action: action, deadline: deadline)
    }

    /// Forgets the file at `path`: renamed, deleted or replaced, its own event says what happened.
    mutating func drop(_ path: PathBytes) {
        held[path] = nil
    }

    /// Forgets the files at or below `folder` (the folder left the library).
    mutating func drop(under folder: PathBytes) {
        held = held.filter { !$0.key.isSameOrInside(folder) }
    }

    /// Follows a folder renamed inside the library.
    mutating func rebase(from: PathBytes, to: PathBytes) {
        var rebased: [PathBytes: Held] = [:]
        for (path, file) in held {
            guard path.isSameOrInside(from) else {
                rebased[path] = file
                continue
            }
            let moved = path.rebased(from: from, to: to)
            var action = file.action
            if case .fileArrived = action { action = .fileArrived(moved) } else { action = .fileWritten(moved) }
            rebased[moved] = Held(action: action, deadline: file.deadline)
        }
        held = rebased
    }

    /// The earliest deadline, if any file is held.
    var nextDeadline: ContinuousClock.Instant? { held.values.map(\.deadline).min() }

    /// The held actions whose grace is over, oldest first; they are no longer held.
    mutating func expire(now: ContinuousClock.Instant) -> [WatchAction] {
        let due = held.filter { $0.value.deadline <= now }
        for path in due.keys { held[path] = nil }
        return due.sorted { first, second in
            first.value.deadline == second.value.deadline
                ? first.key < second.key : first.value.deadline < second.value.deadline
        }.map(\.value.action)
    }
}
