import FileSystem
import Store
import Testing
@testable import PhotoDaemon

private func entry(_ path: String, inode: UInt64, size: Int64 = 100, mtime: Int64 = 1) -> DirectoryWalker.Entry {
    DirectoryWalker.Entry(path: PathBytes(path),
                          info: FileInfo(kind: .regular, device: 7, inode: inode, size: size, mtimeNs: mtime))
}

private func indexed(_ id: String, _ path: String, inode: UInt64, size: Int64 = 100, mtime: Int64 = 1) -> IndexedFile {
    IndexedFile(id: id, path: PathBytes(path), stamp: FileStamp(device: 7, inode: inode, size: size, mtimeNs: mtime))
}

@Suite struct ReconcilePlanTests {
    @Test func unchangedFilesAreNotRead() {
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)], onDisk: [entry("/r/a.jpg", inode: 1)])
        #expect(plan == ReconcilePlan(reads: [], moves: [], vanished: [], unchanged: 1))
    }

    @Test func aChangedFileIsReadUnderItsId() {
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)],
                                      onDisk: [entry("/r/a.jpg", inode: 1, size: 200)])
        #expect(plan.reads.map(\.id) == ["a"])
        #expect(plan.unchanged == 0)
    }

    @Test func aReplacedFileSamePathNewInodeKeepsItsId() {
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)], onDisk: [entry("/r/a.jpg", inode: 2)])
        #expect(plan.reads.map(\.id) == ["a"])
        #expect(plan.vanished.isEmpty)
    }

    /// A photo moved over another while nobody watched stays itself: a grant on the replaced
    /// photo must not pass to it. The replaced asset leaves with the move.
    @Test func aPhotoMovedOverAnotherKeepsItsOwnIdAndReplacesTheOther() {
        let plan = ReconcilePlan.make(indexed: [indexed("shown", "/r/a.jpg", inode: 1), indexed("hidden", "/r/b.jpg", inode: 2)],
                                      onDisk: [entry("/r/a.jpg", inode: 2)])
        #expect(plan.moves == [ReconcilePlan.Move(id: "hidden", path: PathBytes("/r/a.jpg"),
                                                  stamp: FileStamp(device: 7, inode: 2, size: 100, mtimeNs: 1),
                                                  replaces: "shown")])
        #expect(plan.reads.isEmpty)
        #expect(plan.vanished.isEmpty)
        #expect(Scanner.writes(moving: plan.moves).removals == ["shown"])
    }

    @Test func aNewFileIsReadWithoutAnId() {
        let plan = ReconcilePlan.make(indexed: [], onDisk: [entry("/r/new.jpg", inode: 5)])
        #expect(plan.reads == [ReconcilePlan.Read(path: PathBytes("/r/new.jpg"),
                                                  stamp: FileStamp(device: 7, inode: 5, size: 100, mtimeNs: 1), id: nil)])
    }

    @Test func aVanishedFileIsRemoved() {
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)], onDisk: [])
        #expect(plan.vanished.map(\.id) == ["a"])
    }

    @Test func aFileMovedWhileNobodyWatchedKeepsItsIdWithoutBeingRead() {
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)], onDisk: [entry("/r/sub/b.jpg", inode: 1)])
        #expect(plan.moves == [ReconcilePlan.Move(id: "a", path: PathBytes("/r/sub/b.jpg"),
                                                  stamp: FileStamp(device: 7, inode: 1, size: 100, mtimeNs: 1))])
        #expect(plan.reads.isEmpty)
        #expect(plan.vanished.isEmpty)
    }

    @Test func aReusedInodeWithOtherBytesIsANewFileNotAMove() {
        // Deleted, then a new file got the freed inode (or moved and edited: the same to us).
        let plan = ReconcilePlan.make(indexed: [indexed("a", "/r/a.jpg", inode: 1)],
                                      onDisk: [entry("/r/b.jpg", inode: 1, mtime: 9)])
        #expect(plan.reads.map(\.id) == [nil])
        #expect(plan.moves.isEmpty)
        #expect(plan.vanished.map(\.id) == ["a"])
    }

    @Test func aMixOfEverything() {
        let plan = ReconcilePlan.make(
            indexed: [indexed("keep", "/r/keep.jpg", inode: 1), indexed("gone", "/r/gone.jpg", inode: 2),
                      indexed("moved", "/r/old.jpg", inode: 3), indexed("edited", "/r/edit.jpg", inode: 4)],
            onDisk: [entry("/r/keep.jpg", inode: 1), entry("/r/new-name.jpg", inode: 3),
                     entry("/r/edit.jpg", inode: 4, size: 5), entry("/r/fresh.jpg", inode: 9)])
        #expect(plan.unchanged == 1)
        #expect(plan.vanished.map(\.id) == ["gone"])
        #expect(plan.moves.map(\.id) == ["moved"])
        #expect(Set(plan.reads.map { $0.id ?? "new" }) == ["edited", "new"])
    }
}

/// A photo's stamp includes its XMP sidecar, so a reconcile notices a sidecar the image did not have.
@Suite struct ReconcilePlanSidecarTests {
    private let known = IndexedFile(id: "a", path: PathBytes("/r/a.jpg"),
                                    stamp: FileStamp(device: 7, inode: 1, size: 100, mtimeNs: 1, sidecar: 0))

    @Test func aSidecarThatAppearedMeansTheImageIsReadAgain() {
        let plan = ReconcilePlan.make(indexed: [known], onDisk: [entry("/r/a.jpg", inode: 1)], sidecar: { _ in 42 })
        #expect(plan.reads.map(\.id) == ["a"])
        #expect(plan.reads.first?.stamp.sidecar == 42)
        #expect(plan.unchanged == 0)
    }

    @Test func anUnchangedSidecarLeavesTheImageAlone() {
        var withSidecar = known
        withSidecar.stamp.sidecar = 42
        let plan = ReconcilePlan.make(indexed: [withSidecar], onDisk: [entry("/r/a.jpg", inode: 1)], sidecar: { _ in 42 })
        #expect(plan.unchanged == 1)
        #expect(plan.reads.isEmpty)
    }

    @Test func aMoveAwayFromItsSidecarIsAReadUnderTheSameId() {
        var withSidecar = known
        withSidecar.stamp.sidecar = 42
        let plan = ReconcilePlan.make(indexed: [withSidecar], onDisk: [entry("/r/b.jpg", inode: 1)], sidecar: { _ in 0 })
        #expect(plan.moves.isEmpty)
        #expect(plan.reads.map(\.id) == ["a"])
        #expect(plan.vanished.isEmpty)
    }

    @Test func anAssetMarkedUnknownIsReadAgain() {
        var unknown = known
        unknown.stamp.sidecar = -1
        let plan = ReconcilePlan.make(indexed: [unknown], onDisk: [entry("/r/a.jpg", inode: 1)])
        #expect(plan.reads.map(\.id) == ["a"])
    }
}
