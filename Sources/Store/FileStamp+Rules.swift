// The rules that decide, from stamps alone, whether a file must be read again and whether a
// file at a new path is an asset that moved. The scanner's plan, the move finder, the live
// updater and the writer all ask these, so the rules are written once.
extension FileStamp {
    /// The same bytes: the same size and modification time. A write changes the mtime; `mv`
    /// and rename keep both.
    public func hasSameBytes(as other: FileStamp) -> Bool {
        size == other.size && mtimeNs == other.mtimeNs
    }

    /// The same file, whatever its bytes now: the same (device, inode). A file written in place
    /// keeps it; a file renamed over another brings its own.
    public func isSameIdentity(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode
    }

    /// The same file with the same bytes: same (device, inode), size and mtime. Identity alone is
    /// not enough: file systems hand a deleted file's inode to the next new file. A file at a
    /// new path that is the same file as a vanished asset is that asset, moved: it keeps its id.
    public func isSameFile(as other: FileStamp) -> Bool {
        isSameIdentity(as: other) && hasSameBytes(as: other)
    }

    /// Nothing to read again: the same file, the same bytes and the same sidecar as `indexed`.
    public func isUnchanged(since indexed: FileStamp) -> Bool {
        isSameFile(as: indexed) && sidecar == indexed.sidecar
    }
}
