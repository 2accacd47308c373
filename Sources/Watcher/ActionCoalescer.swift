import FileSystem

/// Collects the actions of one batch, dropping the ones that add nothing.
///
/// An action identical to the last action about the same path(s) is dropped (the order of first
/// occurrence is kept), `overflow` is kept once, and a `fileWritten` that nothing else touched
/// before a `fileRemoved` of the same path is dropped. Only adjacent-per-path repeats are merged,
/// so "removed, written, removed" keeps its meaning.
struct ActionCoalescer {
    private var slots: [WatchAction?] = []
    /// For each path, the slots of the kept actions about it, oldest first.
    private var history: [PathBytes: [Int]] = [:]
    private var overflowed = false

    /// The kept actions, in order.
    var actions: [WatchAction] { slots.compactMap { $0 } }

    /// Adds `action` unless it repeats what is already there.
    mutating func add(_ action: WatchAction) {
        if action == .overflow {
            guard !overflowed else { return }
            overflowed = true
            slots.append(action)
            return
        }
        if case .fileRemoved(let path) = action { dropPendingWrites(of: path) }
        let paths = action.paths
        let lasts = paths.map { history[$0]?.last }
        if let first = lasts.first, let slot = first, lasts.allSatisfy({ $0 == slot }), slots[slot] == action {
            return
        }
        let slot = slots.count
        slots.append(action)
        for path in paths { history[path, default: []].append(slot) }
    }

    private mutating func dropPendingWrites(of path: PathBytes) {
        while var kept = history[path], let last = kept.last, slots[last] == .fileWritten(path) {
            slots[last] = nil
            kept.removeLast()
            history[path] = kept
        }
    }
}
