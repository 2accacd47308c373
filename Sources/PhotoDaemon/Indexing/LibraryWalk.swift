#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Logging
import SafeText
import Store
import Synchronization

/// The disk's side of a reconcile: a root's files in path order, a chunk at a time, each with its
/// stamp (its XMP sidecar's signature included). Sidecars are counted as found but are never
/// assets. Pulled on the file pool, one pull at a time; holds one listing per level of the tree.
///
/// A walk that does not stat files (a first index: every file is opened and fstat-ed when it is
/// read, and nothing indexed needs a stamp to compare with) gives each file the stamp
/// `FileInfo.unstated` and the signature of its sidecar, which is stat-ed on its own.
///
/// The walk also removes the temporary files photod's writers left when it was killed in the
/// middle of an import or a description (`LeftoverTemporaries`): it lists every folder anyway,
/// so no other pass over the library is needed for them. It logs them once, at its end.
final class LibraryWalk: Sendable {
    /// What one pull found.
    struct Step: Sendable {
        /// Files that may be images, in path order.
        var files: [ReconcilePlan.Read]
        /// Files the walk went past, sidecars included (progress and the report count them).
        var found: Int
        /// True when the walk is over.
        var ended: Bool
        /// Folders found since the last pull that are there but could not be read whole (EACCES,
        /// EIO, a dead mount inside): what they hold is unknown, so the reconcile keeps it.
        var unreadable: [PathBytes] = []
    }

    private struct State {
        var cursor: DirectoryWalker.Cursor
        /// The last folder a file came from and whether it holds sidecars, so a folder is looked at once.
        var folder: (listing: FolderListing, hasSidecars: Bool)?
        /// Leftover temporary files removed and not yet logged.
        var swept: [PathBytes] = []
        /// Unreadable folders logged so far: a tree of thousands says so in a bounded number of lines.
        var warned = 0
        /// The last folder fingerprinted, so each is once, and the fingerprints of the folders
        /// listed with their files stat-ed (`FolderFingerprintTable`).
        var fingerprinted: FolderListing?
        var fingerprints: [(PathBytes, FolderFingerprint)] = []
    }

    /// Unreadable folders a walk names in the journal one by one; past it, one line counts the rest.
    static let warningsPerWalk = 20

    private let state: Mutex<State>
    private let sidecars: Bool
    private let statingFiles: Bool
    /// The seed of the folders' fingerprints (`Scanner.fingerprintSeed`); nil: none is taken.
    private let fingerprintSeed: UInt64?
    private let logger: Logger

    /// A walk of the files under `root` in `range`; `sidecars`: whether images' XMP sidecars
    /// are looked up (a description source); `beforeListing`: called with each folder just
    /// before it is listed (to watch it); `statingFiles`: whether files are stat-ed as they are
    /// listed (see above); `ignoring`: the files and folders left out, their patterns' paths
    /// taken from `ignoreBase` (the library root; nil: `root`).
    init(root: PathBytes, range: PathRange? = nil, sidecars: Bool, statingFiles: Bool = true,
         beforeListing: (@Sendable (PathBytes) -> Void)? = nil, ignoring: IgnoreRules = .none, ignoreBase: PathBytes? = nil,
         skipping: Set<PathBytes> = [], folderUnchanged: (@Sendable (PathBytes, FileInfo) -> Bool)? = nil,
         leavingOutFiles: (@Sendable (PathBytes) -> Bool)? = nil, fingerprintSeed: UInt64? = nil, logger: Logger) {
        var walker = DirectoryWalker(root: root, range: range)
        walker.beforeListing = beforeListing
        walker.folderUnchanged = folderUnchanged
        walker.leavingOutFiles = leavingOutFiles
        walker.ignoring = ignoring
        walker.ignoreBase = ignoreBase
        walker.skippingFolders = skipping
        state = Mutex(State(cursor: walker.start(statingFiles: statingFiles, sweepingLeftovers: true)))
        self.sidecars = sidecars
        self.statingFiles = statingFiles
        self.fingerprintSeed = fingerprintSeed
        self.logger = logger
    }

    /// The next files, up to `limit` walked. Blocking: lists folders and stats their files.
    func next(upTo limit: Int) -> Step {
        state.withLock { state in
            let step = state.cursor.next(upTo: limit)
            // A folder that is gone is simply empty now (a live rescan of a removed folder).
            let unreadable = step.failures.filter { $0.errno != ENOENT }
            for error in unreadable {
                state.warned += 1
                if state.warned <= Self.warningsPerWalk {
                    logger.warning("cannot read a folder, keeping its photos as indexed: \(error)")
                }
            }
            if step.isLast, state.warned > Self.warningsPerWalk {
                logger.warning("\(state.warned - Self.warningsPerWalk) more folders could not be read; their photos are kept as indexed")
            }
            state.swept += step.swept
            if step.isLast { logSwept(&state.swept) }
            var files: [ReconcilePlan.Read] = []
            files.reserveCapacity(step.entries.count)
            for entry in step.entries {
                if let seed = fingerprintSeed, let folder = entry.folder, folder !== state.fingerprinted {
                    state.fingerprinted = folder
                    if let fingerprint = folder.fingerprint(seed: seed) {
                        state.fingerprints.append((folder.folderPrefix, fingerprint))
                    }
                }
                let path = entry.path
                guard !Sidecar.isSidecar(path) else { continue }
                var file = ReconcilePlan.Read(path: path, stamp: FileStamp(entry.info), id: nil,
                                              linked: entry.info.linkCount > 1)
                file.inUnchangedFolder = entry.info == .unchangedFolder
                // A listing whose files were not stat-ed cannot sign their sidecars.
                let stated = statingFiles && !file.inUnchangedFolder
                if sidecars, let folder = entry.folder, Self.hasSidecars(folder, remembered: &state.folder),
                   let sidecar = stated ? Sidecar.find(for: path, in: folder) : Sidecar.find(for: path) {
                    file.stamp.sidecar = sidecar.signature
                    file.sidecar = sidecar.path
                }
                files.append(file)
            }
            return Step(files: files, found: step.entries.count, ended: step.isLast, unreadable: unreadable.map(\.path))
        }
    }

    /// The fingerprints of the folders walked with their files stat-ed so far, and forgets them.
    func takeFingerprints() -> [(PathBytes, FolderFingerprint)] {
        state.withLock { state in
            defer { state.fingerprints = [] }
            return state.fingerprints
        }
    }

    deinit {
        // A walk given up before its end (a stopped reconcile) still says what it removed.
        state.withLock { logSwept(&$0.swept) }
    }

    /// Logs the leftover temporary files removed, in one line, and forgets them.
    private func logSwept(_ swept: inout [PathBytes]) {
        Self.logSwept(&swept, logger: logger)
    }

    /// Logs the leftover temporary files removed, in one line, and forgets them (also for `FolderCheck`).
    static func logSwept(_ swept: inout [PathBytes], logger: Logger) {
        guard !swept.isEmpty else { return }
        let shown = swept.prefix(10).map { SafeText.escaped(bytes: $0.bytes) }.joined(separator: ", ")
        let more = swept.count > shown.count ? ", …" : ""
        logger.notice("removed \(swept.count) temporary files left by an import or description cut short: \(shown)\(more)")
        swept = []
    }

    /// The files under `root` a first index will read (sidecars and what `ignoring` names left
    /// out, as the walk leaves them), counted quickly for a progress total. Blocking.
    static func count(_ root: PathBytes, ignoring: IgnoreRules = .none, ignoreBase: PathBytes? = nil,
                      skipping: Set<PathBytes> = []) -> Int {
        var walker = DirectoryWalker(root: root)
        walker.ignoring = ignoring
        walker.ignoreBase = ignoreBase
        walker.skippingFolders = skipping
        return walker.countFiles { !Sidecar.isSidecar(PathBytes($0)) }
    }

    private static func hasSidecars(
        _ folder: FolderListing, remembered: inout (listing: FolderListing, hasSidecars: Bool)?
    ) -> Bool {
        if let remembered, remembered.listing === folder { return remembered.hasSidecars }
        let answer = Sidecar.any(in: folder)
        remembered = (folder, answer)
        return answer
    }
}
