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
    func checkFolders(root: PathBytes, ranges: [PathRange],
                      beforeListing: (@Sendable (PathBytes) -> Void)?) async throws -> FolderCheck.Outcome? {
        let recorded = try await store.read { try $0.recordedFingerprints(under: root) }
        guard !recorded.unknown, !recorded.folders.isEmpty else { return nil }
        let started = ContinuousClock.now
        let check = FolderCheck(root: root, ranges: ranges, seed: fingerprintSeed, ignore: ignore,
                                beforeListing: beforeListing, logger: logger)
        let outcome = try await check.run(against: recorded, on: pool)
        logger.debug("""
            checked the folders of \(root) in \((ContinuousClock.now - started).seconds) s: \
            \(outcome.matched.count) as recorded, \(outcome.changed ? "some changed" : "none changed"), \
            \(outcome.files) files
            """)
        return outcome
    }

    /// Records the fingerprints a finished reconcile of `root` leaves true. A failure only
    /// means the next restart compares more.
    func record(_ fingerprints: FingerprintRecord, root: PathBytes) async {
        do {
            try await store.write { database in
                try database.recordFingerprints(under: root, fingerprints.folders, keeping: fingerprints.unclean,
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
    /// may not hold what is there, so they are compared again next time.
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
