import FileSystem

/// After a `FolderCheck` found some folders changed, the stems (`PathStems`) of the index that
/// hold no changed folder: the reconcile that follows pages none of their rows, and walks none
/// of the files of their folders, which all matched their fingerprints.
///
/// Why that is safe: with no folder under the root marked unknown, every indexed row lies in a
/// recorded folder (a reconcile records every folder it walked with its files, and marks the
/// folders it could not vouch for unknown; any later write marks its stem's folders unknown).
/// A stem none of whose recorded folders changed or went away holds rows of matched folders
/// only, and those folders' files are left out of the walk the same way: neither side of the
/// comparison sees them, so none is taken for new or gone.
struct UntouchedStems: Sendable {
    /// The ids of the stems the pages leave out.
    let ids: [Int64]
    /// Every stem's path (with its "/"), in order, and whether it is left out.
    private let stems: [(path: PathBytes, untouched: Bool)]

    /// The untouched ones among `stems` (in path order) under a root whose check found `changed`.
    init(stems: [(id: Int64, path: PathBytes)], changed: [PathBytes]) {
        let changed = changed.sorted()
        var ids: [Int64] = []
        self.stems = stems.map { stem in
            // The paths starting with the stem's come together, from the stem's own on.
            let first = Self.firstIndex(in: changed) { $0 >= stem.path }
            let touched = first < changed.count && changed[first].bytes.starts(with: stem.path.bytes)
            if !touched { ids.append(stem.id) }
            return (stem.path, !touched)
        }
        self.ids = ids
    }

    /// Whether the files of the folder `prefix` (with its "/"), which matched its fingerprint,
    /// are left out of the walk: its stem is untouched, or no stem holds it (no row is there).
    func leavesOutFiles(of prefix: PathBytes) -> Bool {
        // The greatest stem not above the folder is the one that holds it, if any does: stems
        // are no prefix of each other.
        let after = Self.firstIndex(in: stems) { $0.path > prefix }
        guard after > 0, prefix.bytes.starts(with: stems[after - 1].path.bytes) else { return true }
        return stems[after - 1].untouched
    }

    /// The first index of `sorted` whose element satisfies `isAtOrPast` (false, then true).
    private static func firstIndex<Element>(in sorted: [Element], where isAtOrPast: (Element) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
