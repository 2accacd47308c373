/// What the daemon must do, decided from events. Paths are absolute byte paths.
public enum WatchAction: Sendable, Equatable {
    /// `IN_CLOSE_WRITE` on a file: read it (new or changed).
    case fileWritten([UInt8])
    /// `IN_CREATE` of a non-folder: a hard link (`st_nlink > 1`, index it at once) or a file being
    /// created (wait for its `fileWritten`).
    case fileLinked([UInt8])
    /// A file was deleted, or moved out of the watched folders or to a hidden name.
    case fileRemoved([UInt8])
    /// A file was renamed inside the watched folders; both names are visible.
    case fileMoved(from: [UInt8], to: [UInt8])
    /// A file was moved in from outside, or renamed from a hidden name (an atomic replace).
    case fileArrived([UInt8])
    /// A folder appeared (created, moved in, or renamed from a hidden name): watch it, then scan it.
    case directoryCreated([UInt8])
    /// A folder was renamed inside the watched trees; watched paths below it are already rewritten.
    case directoryMoved(from: [UInt8], to: [UInt8])
    /// A folder was deleted, moved out, or renamed to a hidden name; its watches are forgotten.
    case directoryRemoved([UInt8])
    /// A watched folder with no watched parent (a root) was deleted, moved or unmounted.
    case watchedDirectoryGone([UInt8])
    /// Events were lost: reconcile everything.
    case overflow
}

extension WatchAction {
    /// The paths the action is about, in order (empty for `overflow`).
    var paths: [[UInt8]] {
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
