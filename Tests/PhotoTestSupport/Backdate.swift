import Foundation

/// Sets a file's modification time back, as if it had been left alone that long: for the
/// sweep of leftover temporary files, which only takes old ones.
public enum Backdate {
    /// Gives the entry at `path` itself (a symlink is not followed) access and modification
    /// times `seconds` in the past.
    public static func set(_ path: String, secondsAgo seconds: Int) throws {
        let then = timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)
        guard utimensat(AT_FDCWD, path, [then, then], AT_SYMLINK_NOFOLLOW) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
        }
    }
}
