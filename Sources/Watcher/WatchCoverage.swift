import FileSystem

/// The state behind a `WatchSet`: the decoder (wd → folder) and the folders left unwatched.
///
/// Every method runs under the set's lock, so kernel calls and bookkeeping never interleave.
struct WatchCoverage: Sendable {
    var decoder = WatchEventDecoder()
    /// Folders not watched for lack of budget, in the order they were found.
    private(set) var unwatched: [PathBytes] = []

    /// What became of one folder of a tree being covered.
    enum Outcome {
        /// Watched now (or already); walk its subfolders.
        case watched
        /// Left unwatched for lack of budget (recorded in `unwatched`); walk its subfolders to list them.
        case overBudget
        /// Vanished, not a folder, not permitted, or already watched under another path (a bind
        /// mount): skip it and its subtree.
        case skipped
    }

    /// Forgets the unwatched folders at or below `folder`, before covering it again.
    mutating func beginCover(_ folder: PathBytes) {
        unwatched.removeAll { $0.isSameOrInside(folder) }
    }

    /// Watches one folder of a tree if the budget allows. Once the kernel says ENOSPC, `exhausted`
    /// is set and the rest of the walk only lists folders.
    mutating func cover(_ folder: PathBytes, budget: Int, exhausted: inout Bool, inotify: Inotify) -> Outcome {
        let known = decoder.watch(at: folder) != nil
        guard !exhausted, decoder.watchCount < budget || known else { return leave(folder) }
        do {
            let wd = try inotify.addWatch(folder, mask: WatchMask.directory)
            if let existing = decoder.path(of: wd), existing != folder { return .skipped }
            decoder.watched(wd, path: folder)
            removeRetired(inotify: inotify)
            return .watched
        } catch .noWatchesLeft {
            exhausted = true
            return leave(folder)
        } catch {
            return .skipped
        }
    }

    private mutating func leave(_ folder: PathBytes) -> Outcome {
        if !unwatched.contains(folder) { unwatched.append(folder) }
        return .overBudget
    }

    /// Stops watching `folder` and everything below it.
    mutating func uncover(_ folder: PathBytes, inotify: Inotify) {
        for wd in decoder.watches(under: folder) {
            inotify.removeWatch(wd)
            decoder.forget(wd)
        }
        unwatched.removeAll { $0.isSameOrInside(folder) }
        removeRetired(inotify: inotify)
    }

    /// Drops every watch and forgets everything.
    mutating func reset(inotify: Inotify) {
        for wd in decoder.allWatches { inotify.removeWatch(wd) }
        removeRetired(inotify: inotify)
        decoder = WatchEventDecoder()
        unwatched = []
    }

    /// Keeps the unwatched list in step with folder actions, and removes the kernel watches the
    /// decoder stopped tracking.
    mutating func follow(_ actions: [WatchAction], inotify: Inotify) {
        for action in actions {
            switch action {
            case .directoryRemoved(let path):
                unwatched.removeAll { $0.isSameOrInside(path) }
            case .directoryMoved(let from, let to):
                unwatched = unwatched.map { $0.isSameOrInside(from) ? $0.rebased(from: from, to: to) : $0 }
            default:
                break
            }
        }
        removeRetired(inotify: inotify)
    }

    private mutating func removeRetired(inotify: Inotify) {
        for wd in decoder.retired where decoder.path(of: wd) == nil { inotify.removeWatch(wd) }
        decoder.retired = []
    }
}
