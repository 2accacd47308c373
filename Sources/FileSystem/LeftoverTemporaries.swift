#if canImport(Glibc)
import Glibc
#endif

/// Recognises and removes the temporary files of `NewFile`s whose writer was killed before it
/// could put them in place or drop them (photod killed in the middle of an import or a
/// description): nothing else ever removes them, and each can be a whole photo's size.
public enum LeftoverTemporaries {
    /// How long ago, in seconds, a temporary file must have been last written to count as left
    /// behind. A writer that is still running (an import read from a slow pipe, a description
    /// being written) writes to its file all along, so a quarter of an hour without a write
    /// never takes one from under a live write, even with the clock set back a little.
    public static let minimumAge: Int = 15 * 60

    /// Whether `name` (a folder entry's) is a `NewFile` temporary name: a cheap look at the
    /// bytes, for hidden names only, so the walk's hot path stays as it was.
    public static func isTemporaryName(_ name: [UInt8]) -> Bool {
        name.starts(with: NewFile.temporaryPrefix)
    }

    /// Removes the entry `name` of the open folder `folder` if it is a leftover: a regular file
    /// (a symlink is neither followed nor removed), owned by photod's user (never another
    /// user's file in a shared folder), last modified at least `minimumAge` ago. Whether it
    /// was removed. By descriptor and name only, so a folder swapped meanwhile is not followed.
    static func removeIfLeftover(named name: UnsafePointer<CChar>, in folder: Int32) -> Bool {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0, FileInfo(status).kind == .regular,
              status.st_uid == geteuid()
        else { return false }
        var now = timespec()
        guard clock_gettime(CLOCK_REALTIME, &now) == 0,
              Int(now.tv_sec) - Int(status.st_mtim.tv_sec) >= minimumAge
        else { return false }
        return unlinkat(folder, name, 0) == 0
    }
}
