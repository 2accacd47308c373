import FileSystem
import Logging
import Store
import Synchronization

/// The folders' fingerprints around a reconcile (`FolderFingerprintTable`, `FolderCheck`):
/// checked before it compares a root file by file, recorded once it has made the index match.
extension Scanner {
    /// What decides how a file is read besides its bytes: the description sources. A change to
    /// them (sidecars read or not) changes every fingerprint, so every file is compared again.
    var fingerprintSeed: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in reader.sources.map(\.rawValue).joined(separator: ",").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// Checks the folders under `root` against their recorded fingerprints: nil when nothing is
    /// recorded to check against (a first index, a root changed since) and the root must be
    /// compared file by file; else what the check found.
    func checkFolders(root: PathBytes, ranges: [PathRange], ignoreBase: PathBytes,
                      beforeListing: (@Sendable (PathBytes) -> Void)?) async throws -> FolderCheck.Outcome? {
        let recorded = try await store.read { try $0.recordedFingerprints(under: root) }
        guard !recorded.unknown, !recorded.folders.isEmpty else { return nil }
        let started = ContinuousClock.now
        let check = FolderCheck(root: root, ranges: ranges, seed: fingerprintSeed, ignore: ignore, ignoreBase: ignoreBase,
                                beforeListing: beforeListing, logger: logger)
        let outcome = try await check.run(against: recorded, on: pool)
        logger.debug("""
            checked the folders of \(root) in \((ContinuousClock.now - started).seconds) s: \
            \(outcome.matched.count) as recorded, \(outcome.changed ? "some changed" : "none changed"), \
            \(outcome.fileCount) files
            """)
        return outcome
    }

    /// Records the fingerprints a finished reconcile of `root` leaves true. A failure only
    /// means the next restart compares more.
    func record(_ fingerprints: FingerprintRecord, root: PathBytes) async {
        do {
            try await store.write { database in
                try database.recordFingerprints(under: root, fingerprints.folders, unknown: fingerprints.unclean,
                                                complete: fingerprints.complete)
            }
        } catch {
            logger.debug("the folders' fingerprints under \(root) were not recorded: \(error)")
        }
    }
}

/// The fingerprints a reconcile took, and the folders it cannot vouch for.
struct FingerprintRecord: Sendable {
    /// The folders walked with their files stat-ed (and those the check found as recorded).
    var folders: [(PathBytes, FolderFingerprint)]
    /// Folders with a file that could not be read, or that could not be listed whole: the index
    /// may not hold what is there, so they are marked unknown, and the root is compared file by
    /// file next time (which tries the file again).
    var unclean: Set<PathBytes>
    /// Whether the walk saw every folder under the root.
    var complete: Bool

    /// The record of `folders`, without the unclean ones.
    init(folders: [(PathBytes, FolderFingerprint)], unclean: Set<PathBytes>, complete: Bool) {
        self.folders = folders.filter { !unclean.contains($0.0) }
        self.unclean = unclean
        self.complete = complete
    }
}

/// The folders of the files a reconcile could not read, gathered from its read tasks.
final class UncleanFolders: Sendable {
    private let folders = Mutex(Set<PathBytes>())

    /// Notes the folder of `file`.
    func add(file: PathBytes) {
        guard let folder = file.parent?.folderPrefix else { return }
        folders.withLock { _ = $0.insert(folder) }
    }

    /// Notes folders (paths without their trailing "/").
    func add(folders paths: [PathBytes]) {
        folders.withLock { set in paths.forEach { set.insert($0.folderPrefix) } }
    }

    /// The folders noted.
    var all: Set<PathBytes> { folders.withLock { $0 } }
}

/// The folders a `FolderCheck` found as recorded, for the reconcile that follows it when others
/// changed: their files are listed by name only, or not at all where their stem is untouched
/// (`UntouchedStems`), whose rows the pages leave out too.
final class MatchedFolders: Sendable {
    /// Each matched folder (with its "/") and its fingerprint, recorded again after.
    let fingerprints: [PathBytes: FolderFingerprint]
    /// The stems the pages leave out; nil: none.
    let untouched: UntouchedStems?
    /// The files that may be images in each folder the check listed, for the report.
    private let files: [PathBytes: Int]
    /// The folders whose files the walk left out.
    private let leftOut = Mutex(Set<PathBytes>())

    /// Nothing matched.
    init() {
        fingerprints = [:]
        untouched = nil
        files = [:]
    }

    /// The folders `outcome` matched under `root`, with the stems of `store` they leave untouched.
    init(_ outcome: FolderCheck.Outcome, root: PathBytes, store: Store) async throws {
        fingerprints = outcome.matched
        files = outcome.files
        let stems = outcome.matched.isEmpty ? nil : try await store.read { try $0.stems(under: root) }
        untouched = stems.map { UntouchedStems(stems: $0, changed: outcome.changedFolders) }
    }

    /// The walk's `folderUnchanged`: a matched folder's files are taken as indexed. Nil when none matched.
    var unchangedFolder: (@Sendable (PathBytes, FileInfo) -> Bool)? {
        guard !fingerprints.isEmpty else { return nil }
        return { [fingerprints] folder, _ in fingerprints[folder.folderPrefix] != nil }
    }

    /// The walk's `leavingOutFiles`: a matched folder under an untouched stem is not walked.
    /// Nil when no stem is untouched.
    func leavingOutFiles() -> (@Sendable (PathBytes) -> Bool)? {
        guard let untouched, !untouched.ids.isEmpty else { return nil }
        return { [self] folder in
            let prefix = folder.folderPrefix
            guard fingerprints[prefix] != nil, untouched.leavesOutFiles(of: prefix) else { return false }
            leftOut.withLock { _ = $0.insert(prefix) }
            return true
        }
    }

    /// The files the walk left out, which stand as indexed (for the report).
    var filesLeftOut: Int {
        leftOut.withLock { $0.reduce(0) { $0 + (files[$1] ?? 0) } }
    }
}
