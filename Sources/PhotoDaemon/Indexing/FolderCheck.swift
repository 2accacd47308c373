#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Logging
import NIOPosix
import Store
import Synchronization

/// A reconcile's first look at a root whose folders have recorded fingerprints (a restart, a
/// rescan): every folder is listed and its files stat-ed, as a reconcile does, but nothing is
/// compared file by file, paged from the index or allocated per file. A folder whose
/// fingerprint is the one recorded is as the index knows it.
///
/// When every folder is, and no recorded folder is gone, the root is reconciled: that is a
/// restart over an unchanged library, a walk and nothing else. Otherwise the reconcile compares
/// the root as always, with the folders that matched listed by name only
/// (`DirectoryWalker.folderUnchanged`): only the others' files are stat-ed again.
struct FolderCheck {
    /// What the check found.
    struct Outcome: Sendable {
        /// The folders whose fingerprint is the recorded one, with it.
        var matched: [PathBytes: FolderFingerprint] = [:]
        /// Some folder differs, is new with files, is gone, or could not be read.
        var changed = false
        /// The folders listed that differ from their record or are new with files, and those
        /// recorded and gone (a folder that could not be read is in neither: `changed` says so).
        var changedFolders: [PathBytes] = []
        /// The files that may be images (sidecars left out) in each folder listed.
        var files: [PathBytes: Int] = [:]

        /// The files found that may be images, for the report.
        var fileCount: Int { files.values.reduce(0, +) }
    }

    /// A folder listed: its path with a trailing "/", its fingerprint, and its files that may be images.
    private typealias Listed = (folder: PathBytes, fingerprint: FolderFingerprint, files: Int)

    /// One range's folders, whether any could not be read, and the leftovers it removed.
    private struct RangeResult: Sendable {
        var folders: [Listed] = []
        var failed = false
        var swept: [PathBytes] = []
    }

    let root: PathBytes
    let ranges: [PathRange]
    let seed: UInt64
    let ignore: LibraryIgnore
    /// The folder `ignore`'s patterns are relative to (`LibraryIgnore.base(for:)`).
    let ignoreBase: PathBytes
    let beforeListing: (@Sendable (PathBytes) -> Void)?
    let logger: Logger

    /// Lists every folder under the root, the ranges side by side on `pool`, and compares each
    /// fingerprint with `recorded`.
    /// Cancelled (a shutdown), it stops between folders and throws `CancellationError`.
    func run(against recorded: RecordedFingerprints, on pool: NIOThreadPool) async throws -> Outcome {
        let stop = StopFlag()
        let results = try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: RangeResult.self) { group in
                for range in ranges {
                    group.addTask { [self] in try await pool.runIfActive { list(range, until: stop) } }
                }
                var results: [RangeResult] = []
                for try await result in group { results.append(result) }
                return results
            }
        } onCancel: {
            stop.raise()
        }
        try Task.checkCancellation()
        // photod's own temporary files a crash left are removed by this walk, as by any.
        var swept = results.flatMap(\.swept)
        LibraryWalk.logSwept(&swept, logger: logger)
        return Self.compare(results.flatMap(\.folders), failed: results.contains { $0.failed }, with: recorded)
    }

    /// Folders listed by both ranges (the one they are split in) count once.
    private static func compare(_ listed: [Listed], failed: Bool, with recorded: RecordedFingerprints) -> Outcome {
        var outcome = Outcome(changed: failed || recorded.unknown)
        var seen = Set<PathBytes>()
        for (folder, fingerprint, files) in listed where seen.insert(folder).inserted {
            outcome.files[folder] = files
            if let known = recorded.folders[folder] {
                if known == fingerprint { outcome.matched[folder] = fingerprint } else { outcome.changedFolders.append(folder) }
            } else if fingerprint.files > 0 {
                // Files in a folder nothing was recorded for: new, or the record was forgotten.
                outcome.changedFolders.append(folder)
            }
        }
        // A recorded folder not listed now is gone (or ignored now): its photos leave the index.
        outcome.changedFolders += recorded.folders.keys.filter { !seen.contains($0) }
        if !outcome.changedFolders.isEmpty { outcome.changed = true }
        return outcome
    }

    /// Lists the folders of `range`, or fewer once `stop` is raised. Blocking.
    private func list(_ range: PathRange, until stop: StopFlag) -> RangeResult {
        var walker = DirectoryWalker(root: root, range: range)
        walker.beforeListing = beforeListing
        walker.ignoring = ignore.rules
        walker.ignoreBase = ignoreBase
        var cursor = walker.startListingFolders()
        var result = RangeResult()
        while !stop.isRaised, let listing = cursor.nextFolder() {
            // Never nil here: this walk stats every file. One that could not be stat-ed is left
            // out of its listing and makes the folder a failure (`takeFailures()`, below).
            guard let fingerprint = listing.fingerprint(seed: seed) else { continue }
            result.folders.append((listing.folderPrefix, fingerprint, listing.countFiles { !Sidecar.isSidecar(name: $0) }))
        }
        // A folder that is gone meanwhile is simply not there; any other failure is unknown.
        result.failed = cursor.takeFailures().contains { $0.errno != ENOENT }
        result.swept = cursor.takeSwept()
        return result
    }
}


/// A flag a task's cancellation raises, for blocking work on another thread to look at between steps.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// Raises the flag.
    func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether it was raised.
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
