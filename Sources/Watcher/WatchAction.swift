import FileSystem

/// What the daemon must do, decided from events. Paths are absolute.
public enum WatchAction: Sendable, Equatable {
    /// `IN_CLOSE_WRITE` on a file: read it (new or changed).
    case fileWritten(PathBytes)
    /// `IN_CREATE` of a non-folder: a hard link (`st_nlink > 1`, index it at once) or a file being
    /// created (wait for its `fileWritten`).
    case fileLinked(PathBytes)
    /// A file was deleted, or moved out of the watched folders or to a hidden name.
    case fileRemoved(PathBytes)
    /// A file was renamed inside the watched folders; both names are visible.
    case fileMoved(from: PathBytes, to: PathBytes)
    /// A file was moved in from outside, or renamed from a hidden name (an atomic replace).
    case fileArrived(PathBytes)
    /// A folder appeared (created, moved in, or renamed from a hidden name): watch it, then scan it.
    case directoryCreated(PathBytes)
    /// A folder was renamed inside the watched trees; watched paths below it are already rewritten.
    case directoryMoved(from: PathBytes, to: PathBytes)
    /// A folder was deleted, moved out, or renamed to a hidden name; its watches are forgotten.
    case directoryRemoved(PathBytes)
    /// A watched folder with no watched parent (a root) was deleted, moved or unmounted.
    case watchedDirectoryGone(PathBytes)
    /// Events were lost: reconcile everything.
    case overflow
}

extension WatchAction {
    /// The paths the action is about, in order (empty for `overflow`).
    var paths: [PathBytes] {
        switch self {
        case .fileWritten(let path), .fileLinked(let path), .fileRemoved(let path), .fileArrived(let path),
            .directoryCreated(let path), .directoryRemoved(let path), .watchedDirectoryGone(let path):
            [path]
        case .fileMoved(let from, let to), .directoryMoved(let from, let to):
            [from, to]
        case .overflow:
            []
        }
    }
}
