#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Synchronization

/// The time of each folder of a polled tree when a poll pass last listed it, so the next pass
/// lists an unchanged folder by name and takes its files as the index knows them, rather than
/// asking the server about each one (a stat a file is most of a pass over NFS or FUSE).
///
/// A folder's time moves when an entry is made, removed or renamed in it, which is how photos
/// arrive (ExifTool and editors write a new file and rename it over the old); a file rewritten
/// in place does not move it, so every `fullPassEvery`th pass stats every file anyway. A folder
/// changed within `settle` of its listing is not trusted next time: on a file system with a
/// coarse clock a second change in the same tick would leave its time where it was.
final class FolderTimes: Sendable {
    /// Passes between two that stat every file.
    static let fullPassEvery = 10
    /// How long before its listing a folder must have last changed to be trusted next time.
    static let settle: Int64 = 3_000_000_000

    /// Each folder's identity and time at its last listing, when settled by then, and the last
    /// pass that listed it by name (a folder straddling two parts of a walk is listed twice).
    private let times = Mutex<[PathBytes: (inode: UInt64, mtimeNs: Int64, pass: Int)]>([:])
    private let passes = Atomic(0)
    /// Whether the last pass begun trusted the times, and how many folders it listed by name.
    private let trustingNow = Atomic(false)
    private let unchangedNow = Atomic(0)

    /// Starts a pass: whether it may trust the times kept (never where the file system's times
    /// say nothing, `fileSystemTrusted` false; nor every `fullPassEvery`th pass, nor the first,
    /// which has none).
    func beginPass(fileSystemTrusted: Bool) -> Bool {
        let trusting = fileSystemTrusted && passes.add(1, ordering: .relaxed).newValue % Self.fullPassEvery != 1
        trustingNow.store(trusting, ordering: .relaxed)
        unchangedNow.store(0, ordering: .relaxed)
        return trusting
    }

    /// How the last pass begun went so far: nil when it stat-ed every file, else the folders
    /// it listed by name.
    var lastPassUnchangedFolders: Int? {
        trustingNow.load(ordering: .relaxed) ? unchangedNow.load(ordering: .relaxed) : nil
    }

    /// What a walk asks of each folder before listing it (`DirectoryWalker.folderUnchanged`):
    /// with `trusting`, whether `folder` is as it was at the last listing; either way, keeps
    /// its time for the next pass when it has settled.
    func check(trusting: Bool) -> @Sendable (PathBytes, FileInfo) -> Bool {
        let pass = passes.load(ordering: .relaxed)
        return { folder, info in
            let now = Self.wallClockNanoseconds()
            let settled = now - info.mtimeNs >= Self.settle
            return self.times.withLock { times in
                let before = times[folder]
                guard trusting, let before, before.inode == info.inode, before.mtimeNs == info.mtimeNs else {
                    times[folder] = settled ? (info.inode, info.mtimeNs, 0) : nil
                    return false
                }
                if before.pass != pass {
                    times[folder]?.pass = pass
                    self.unchangedNow.add(1, ordering: .relaxed)
                }
                return true
            }
        }
    }

    /// Folders whose times are kept.
    var count: Int { times.withLock { $0.count } }

    private static func wallClockNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
