import FileSystem
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

private func file(_ path: String, inode: UInt64, mtime: Int64 = 1) -> ReconcilePlan.Read {
    ReconcilePlan.Read(path: PathBytes(path), stamp: FileStamp(device: 7, inode: inode, size: 100, mtimeNs: mtime), id: nil)
}

private func row(_ id: String, _ path: String, inode: UInt64, mtime: Int64 = 1) -> IndexedFile {
    IndexedFile(id: id, path: PathBytes(path), stamp: FileStamp(device: 7, inode: inode, size: 100, mtimeNs: mtime))
}

/// The reconcile's comparison as the walk and the index go by, a piece at a time.
@Suite struct ReconcileMergeTests {
    @Test func withNothingIndexedNewFilesAreReadAtOnce() {
        var merge = ReconcileMerge(pairing: false)
        var disk = [file("/r/a.jpg", inode: 1), file("/r/b.jpg", inode: 2)][...]
        var index: ArraySlice<IndexedFile> = []
        merge.compare(disk: &disk, index: &index, diskEnded: false, indexEnded: true)
        #expect(merge.reads.map(\.path) == [PathBytes("/r/a.jpg"), PathBytes("/r/b.jpg")])
        #expect(merge.held.isEmpty)
        #expect(disk.isEmpty)
    }

    @Test func aFileIsNotSettledBeforeTheIndexHasGonePastItsPath() {
        var merge = ReconcileMerge(pairing: true)
        var disk = [file("/r/a.jpg", inode: 1), file("/r/c.jpg", inode: 3, mtime: 2)][...]
        var index = [row("a", "/r/a.jpg", inode: 1)][...]
        merge.compare(disk: &disk, index: &index, diskEnded: false, indexEnded: false)
        // a.jpg matched; c.jpg waits: the next page may hold it.
        #expect(merge.unchanged == 1)
        #expect(disk.map(\.path) == [PathBytes("/r/c.jpg")])
        index = [row("c", "/r/c.jpg", inode: 3)][...]
        merge.compare(disk: &disk, index: &index, diskEnded: true, indexEnded: true)
        #expect(merge.reads.map(\.id) == ["c"])  // changed: read under its id
        #expect(merge.held.isEmpty)
    }

    @Test func heldFilesNoAssetCouldBeAreReleasedTheRestWaitForTheEnd() {
        var merge = ReconcileMerge(pairing: true)
        var disk = [file("/r/moved.jpg", inode: 1), file("/r/new.jpg", inode: 2)][...]
        var index: ArraySlice<IndexedFile> = []
        merge.compare(disk: &disk, index: &index, diskEnded: false, indexEnded: true)
        #expect(merge.held.count == 2)
        #expect(merge.reads.isEmpty)
        merge.settleHeld { $0.stamp.inode == 1 ? .held : .new }  // an asset under the root has inode 1's identity and bytes
        #expect(merge.reads.map(\.path) == [PathBytes("/r/new.jpg")])
        #expect(merge.held.map(\.path) == [PathBytes("/r/moved.jpg")])
    }

    @Test func heldFilesMovedInFromOutsideTheRootBecomeMovesOrReadsUnderTheirId() {
        var merge = ReconcileMerge(pairing: true)
        var disk = [file("/r/a.jpg", inode: 1), file("/r/b.jpg", inode: 2)][...]
        var index: ArraySlice<IndexedFile> = []
        merge.compare(disk: &disk, index: &index, diskEnded: true, indexEnded: true)
        var withSidecar = row("b", "/elsewhere/b.jpg", inode: 2)
        withSidecar.stamp.sidecar = 42
        merge.settleHeld { $0.stamp.inode == 1 ? .moved(row("a", "/elsewhere/a.jpg", inode: 1)) : .moved(withSidecar) }
        #expect(merge.moves == [ReconcilePlan.Move(id: "a", path: PathBytes("/r/a.jpg"), stamp: file("/r/a.jpg", inode: 1).stamp)])
        #expect(merge.reads.map(\.id) == ["b"], "its sidecar differs from the indexed one: read again")
        #expect(merge.held.isEmpty)
        let plan = merge.finish()
        #expect(plan.moves.map(\.id) == ["a"], "moves not taken yet are in the plan")
        #expect(plan.vanished.isEmpty)
    }

    /// Past its limit a merge keeps no vanished rows (the scanner sweeps the index for them),
    /// and its held files are left to read, for the scanner to find the moves among them.
    @Test func aMergeWithMoreVanishedRowsThanItsLimitKeepsNoneAndLeavesItsHeldFilesToTheScanner() {
        var merge = ReconcileMerge(pairing: true, vanishedLimit: 2)
        var disk = [file("/r/new/0.jpg", inode: 0)][...]
        var index = (0..<3).map { row("id\($0)", "/r/old/\($0).jpg", inode: UInt64($0)) }[...]
        merge.compare(disk: &disk, index: &index, diskEnded: true, indexEnded: true)
        #expect(merge.sweeping)
        let plan = merge.finish()
        #expect(plan.sweep)
        #expect(plan.vanished.isEmpty)
        #expect(plan.moves.isEmpty)
        #expect(plan.reads.map(\.path) == [PathBytes("/r/new/0.jpg")])
        var under = ReconcileMerge(pairing: true, vanishedLimit: 3)
        index = (0..<3).map { row("id\($0)", "/r/old/\($0).jpg", inode: UInt64($0)) }[...]
        disk = [file("/r/new/0.jpg", inode: 0)][...]
        under.compare(disk: &disk, index: &index, diskEnded: true, indexEnded: true)
        let paired = under.finish()
        #expect(!paired.sweep)
        #expect(paired.moves.map(\.id) == ["id0"])
        #expect(paired.vanished.map(\.id) == ["id1", "id2"])
    }

    @Test func aMergeFedInPiecesDecidesWhatOneOverWholeListsDoes() {
        var random = SplitMix64(seed: 16)
        for _ in 0..<50 {
            // A random library before and after: some files kept, edited, moved, removed, added.
            var indexed: [IndexedFile] = []
            var onDisk: [DirectoryWalker.Entry] = []
            for number in 0..<60 {
                let path = "/r/\(number % 7)/\(number).jpg"
                let info = FileInfo(kind: .regular, device: 7, inode: UInt64(number), size: 100, mtimeNs: 1)
                switch random.next() % 5 {
                case 0: indexed.append(row("id\(number)", path, inode: UInt64(number)))
                case 1: onDisk.append(DirectoryWalker.Entry(path: PathBytes(path), info: info))
                case 2:
                    indexed.append(row("id\(number)", path, inode: UInt64(number)))
                    onDisk.append(DirectoryWalker.Entry(path: PathBytes("/r/moved/\(number).jpg"), info: info))
                case 3:
                    indexed.append(row("id\(number)", path, inode: UInt64(number)))
                    var edited = info
                    edited.mtimeNs = 2
                    onDisk.append(DirectoryWalker.Entry(path: PathBytes(path), info: edited))
                default:
                    indexed.append(row("id\(number)", path, inode: UInt64(number)))
                    onDisk.append(DirectoryWalker.Entry(path: PathBytes(path), info: info))
                }
            }
            let whole = ReconcilePlan.make(indexed: indexed, onDisk: onDisk)
            var disk = onDisk.map { ReconcilePlan.Read(path: $0.path, stamp: FileStamp($0.info), id: nil) }
                .sorted { $0.path < $1.path }
            var index = indexed.sorted { $0.path < $1.path }
            var merge = ReconcileMerge(pairing: true)
            var diskSlice: ArraySlice<ReconcilePlan.Read> = []
            var indexSlice: ArraySlice<IndexedFile> = []
            var streamed: [ReconcilePlan.Read] = []
            while !disk.isEmpty || !index.isEmpty || !diskSlice.isEmpty || !indexSlice.isEmpty {
                let takeDisk = Int(random.next() % 4), takeIndex = Int(random.next() % 4)
                diskSlice += disk.prefix(takeDisk)
                disk.removeFirst(min(takeDisk, disk.count))
                indexSlice += index.prefix(takeIndex)
                index.removeFirst(min(takeIndex, index.count))
                merge.compare(disk: &diskSlice, index: &indexSlice, diskEnded: disk.isEmpty, indexEnded: index.isEmpty)
                streamed += merge.reads
                merge.reads = []
            }
            var pieces = merge.finish()
            pieces.reads = streamed + pieces.reads
            #expect(pieces.unchanged == whole.unchanged)
            #expect(pieces.vanished == whole.vanished)
            #expect(Set(pieces.moves.map(\.id)) == Set(whole.moves.map(\.id)))
            #expect(Set(pieces.reads.map { $0.path.description + "|" + ($0.id ?? "new") })
                    == Set(whole.reads.map { $0.path.description + "|" + ($0.id ?? "new") }))
        }
    }
}

/// What the reconcile's input side asks for, and how it settles held files with the index's answer.
@Suite struct ReconcileFeedTests {
    /// The held files a check among `fetches` asks about, if one does.
    private static func filesToCheck(in fetches: [ReconcileFeed.Fetch]) -> [ReconcilePlan.Read]? {
        fetches.lazy.compactMap { fetch -> [ReconcilePlan.Read]? in
            if case .check(let files) = fetch { return files }
            return nil
        }.first
    }

    /// Whether `fetches` ask for the walk's next files.
    private static func asksToWalk(_ fetches: [ReconcileFeed.Fetch]) -> Bool {
        fetches.contains { if case .walk = $0 { true } else { false } }
    }

    private func walked(_ files: [ReconcilePlan.Read], ended: Bool) -> LibraryWalk.Step {
        LibraryWalk.Step(files: files, found: files.count, ended: ended)
    }

    @Test func theWalkWaitsWhileFilesToReadPileUp() {
        var feed = ReconcileFeed(pairing: false)
        #expect(feed.fetches().count == 2)  // the walk and the first page
        feed.paged([])
        feed.walked(walked((0..<ReconcileFeed.readAhead).map { file("/r/\($0).jpg", inode: UInt64($0)) }, ended: false))
        // The readers took none of them: the walk waits.
        #expect(feed.fetches().isEmpty)
        #expect(feed.takeReads(limit: 128)?.count == 128)
        guard case .walk = feed.fetches().first else {
            Issue.record("the walk was not asked for more")
            return
        }
    }

    @Test func heldFilesAreCheckedWithTheIndexOnceThereAreManyAndOnlyTheKnownStayHeld() throws {
        var feed = ReconcileFeed(pairing: true)
        _ = feed.fetches()
        feed.paged([])
        let count = ReconcileFeed.holdLimit
        feed.walked(walked((0..<count).map { file("/r/\(100_000 + $0).jpg", inode: UInt64($0)) }, ended: false))
        let fetches = feed.fetches()
        let asked = try #require(Self.filesToCheck(in: fetches))
        #expect(asked.count == count)
        // Meanwhile the walk found one more: it was not asked about, so it stays held.
        feed.walked(walked([file("/r/z.jpg", inode: 999_999)], ended: true))
        feed.checked([.held] + Array(repeating: .new, count: count - 1))
        #expect(feed.merge.held.count == 2)
        #expect(feed.merge.reads.count == count - 1)
        #expect(feed.isExhausted)
        var merge = feed.takeMerge()
        let plan = merge.finish()
        #expect(feed.takeReads(limit: 128) == nil)
        #expect(plan.reads.count == count + 1)  // nothing vanished: every held file is new after all
        #expect(plan.moves.isEmpty)
    }

    /// A renamed root: every file is new at its path and an asset outside the root. They are
    /// written as moves while the walk goes on, not held to its end (a million were 1.2 GB).
    @Test func filesMovedInFromOutsideTheRootAreWrittenAsTheWalkGoes() throws {
        var feed = ReconcileFeed(pairing: true)
        _ = feed.fetches()
        feed.paged([])
        let count = ReconcileFeed.holdLimit
        feed.walked(walked((0..<count).map { file("/new/\($0).jpg", inode: UInt64($0)) }, ended: false))
        let asked = try #require(Self.filesToCheck(in: feed.fetches()))
        feed.checked(asked.map { .moved(row("id\($0.stamp.inode)", "/old/\($0.stamp.inode).jpg", inode: $0.stamp.inode)) })
        #expect(feed.merge.held.isEmpty)
        feed.walked(walked([], ended: false))  // the pull asked for beside the check
        // Until the moves are taken for writing, the walk waits.
        #expect(!Self.asksToWalk(feed.fetches()))
        let taken = feed.takeMoves()
        let moves = try #require(taken)
        #expect(moves.count == count)
        #expect(moves.first == ReconcilePlan.Move(id: "id0", path: PathBytes("/new/0.jpg"), stamp: asked[0].stamp))
        #expect(feed.takeMoves() == nil)
        #expect(Self.asksToWalk(feed.fetches()))
    }
}
