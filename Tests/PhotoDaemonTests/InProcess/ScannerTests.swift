import FileSystem
import Foundation
import Store
import PhotoAPI
import Testing
@testable import PhotoDaemon

/// `Scanner.reconcile` over real files and a real index.
@Suite struct ScannerTests {
    @Test func aFirstReconcileIndexesEveryImageInBatchesAndNothingElse() async throws {
        var files: [String: [UInt8]] = ["notes.txt": Array("not a photo".utf8), "a.jpg.xmp": Array("<x/>".utf8)]
        for index in 0..<7 { files["trip/\(index).jpg"] = TestPhoto.jpeg(index < 4 ? "Beach" : nil) }
        try await IndexingRig.with(files: files) { rig in
            let report = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            #expect(report.inserted == 7)
            #expect(report.loadedInBulk, "a first index loads in bulk however few its files")
            #expect(report.read == 8)  // the text file is read and found not to be an image; the sidecar is not read
            let indexed = try await rig.indexed()
            #expect(Set(indexed.keys) == Set((0..<7).map { "trip/\($0).jpg" }))
            #expect(indexed.values.filter { $0.group == "Beach" }.count == 4)
            #expect(indexed.values.filter { $0.group == "Other" }.count == 3)
        }
    }

    @Test func anUnchangedLibraryIsNotReadAgain() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach"), "b.jpg": TestPhoto.jpeg("Hike")]) { rig in
            let root = PathBytes(rig.library)
            _ = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            let again = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(again.read == 0)
            #expect(again.unchanged == 2)
            #expect(!again.loadedInBulk)
            #expect(again.changed == 0)
        }
    }

    /// A first index names files without stat-ing them as it walks (each is fstat-ed when read),
    /// but their sidecars still count in their stamps: nothing is read again after it.
    @Test func aFirstIndexWithSidecarsLeavesNothingToReadAgain() async throws {
        let xmp = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt><rdf:li xml:lang="x-default">Lake</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"#.utf8)
        let files: [String: [UInt8]] = ["trip/a.jpg": TestPhoto.jpeg(nil), "trip/a.jpg.xmp": xmp,
                                        "trip/b.jpg": TestPhoto.jpeg(nil), "trip/b.xmp": xmp,
                                        "trip/c.jpg": TestPhoto.jpeg("Hike")]
        try await IndexingRig.with(files: files) { rig in
            let root = PathBytes(rig.library)
            let first = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(first.inserted == 3)
            let indexed = try await rig.indexed()
            #expect(indexed["trip/a.jpg"]?.group == "Lake" && indexed["trip/b.jpg"]?.group == "Lake")
            let again = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(again.read == 0, "the stamps the first index stored are the files' own")
            #expect(again.unchanged == 3)
        }
    }

    @Test func changesMadeWhileNobodyWatchedKeepIdsForMovesAndDropTheRemoved() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach"), "b.jpg": TestPhoto.jpeg("Hike"),
                                           "c.jpg": TestPhoto.jpeg("Snow")]) { rig in
            let root = PathBytes(rig.library)
            _ = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            let before = try await rig.indexed()
            try rig.move("a.jpg", "renamed/a2.jpg")
            try FileManager.default.removeItem(atPath: rig.library + "/b.jpg")
            try rig.write("c.jpg", TestPhoto.jpeg("Snowfall"))
            let report = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(report.moved == 1)
            #expect(report.removed == 1)
            #expect(report.updated == 1)
            let after = try await rig.indexed()
            #expect(after["renamed/a2.jpg"]?.id == before["a.jpg"]?.id)
            #expect(after["b.jpg"] == nil)
            #expect(after["c.jpg"]?.id == before["c.jpg"]?.id)
            #expect(after["c.jpg"]?.group == "Snowfall")
        }
    }

    /// While photod was down a hidden photo was moved over one a limited app may read, and
    /// another photo was replaced by a new file (an editor's save): the moved photo keeps its own
    /// id (the granted id leaves with the file it named); the new file keeps the path's id.
    @Test func aPhotoMovedOverAnotherUnseenKeepsItsOwnIdAndANewFileInPlaceKeepsThePathsId() async throws {
        try await IndexingRig.with(files: ["shown.jpg": TestPhoto.jpeg("Beach"), "hidden.jpg": TestPhoto.jpeg("Private"),
                                           "edited.jpg": TestPhoto.jpeg("Snow")]) { rig in
            let root = PathBytes(rig.library)
            _ = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            let before = try await rig.indexed()
            #expect(rename(rig.library + "/hidden.jpg", rig.library + "/shown.jpg") == 0)
            try rig.write("edited.jpg.new", TestPhoto.jpeg("Snowfall"))
            #expect(rename(rig.library + "/edited.jpg.new", rig.library + "/edited.jpg") == 0)
            let report = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(report.moved == 1)
            #expect(report.removed == 1)
            #expect(report.updated == 1)
            let after = try await rig.indexed()
            #expect(after["shown.jpg"]?.id == before["hidden.jpg"]?.id)
            #expect(after["shown.jpg"]?.group == "Private")
            #expect(after.values.contains { $0.id == before["shown.jpg"]?.id } == false)
            #expect(after["edited.jpg"]?.id == before["edited.jpg"]?.id)
            #expect(after["edited.jpg"]?.group == "Snowfall")
            #expect(after.count == 2)
        }
    }

    @Test func aFileMovedInFromAnotherFolderUnseenKeepsItsId() async throws {
        try await IndexingRig.with(files: ["left/a.jpg": TestPhoto.jpeg("Beach"), "right/keep.jpg": TestPhoto.jpeg(nil)]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let id = try await rig.indexed()["left/a.jpg"]?.id
            try rig.move("left/a.jpg", "right/a.jpg")
            // Only the folder it arrived in is reconciled: the id is found by the file's identity.
            let report = try await rig.scanner.reconcile(root: rig.path("right"), progress: ScanProgressTracker())
            #expect(report.moved == 1)
            #expect(report.read == 0)
            #expect(try await rig.indexed()["right/a.jpg"]?.id == id)
        }
    }

    /// A folder renamed while photod was down, with enough photos for a bulk load once they
    /// are counted: every photo is found by its inode and keeps its id, and nothing is read.
    /// (A bulk load into an index that holds photos keeps the identity index these lookups
    /// use: BulkLoadTests.)
    @Test func aFolderOfManyPhotosRenamedUnseenKeepsEveryIdWithoutReading() async throws {
        let count = 1000
        var files: [String: [UInt8]] = [:]
        for index in 0..<count { files["old/\(index % 10)/\(index).jpg"] = TestPhoto.jpeg(index % 2 == 0 ? "Beach" : nil) }
        try await IndexingRig.with(files: files) { rig in
            _ = try await rig.scanner.reconcile(root: rig.path("old"), progress: ScanProgressTracker())
            let before = try await rig.indexed()
            let token = try await rig.store.read { try $0.currentToken() }
            try rig.move("old", "new")
            let report = try await rig.scanner.reconcile(root: rig.path("new"), progress: ScanProgressTracker())
            #expect(report.moved == count)
            #expect(report.read == 0)
            // Written a batch at a time: one batch of a renamed root's 1,000,000 moves, and its
            // logged change, peaked at 1.8 GB.
            let changes = try await rig.store.read { try $0.changes(after: token, limit: count) }
            #expect(changes.reduce(0) { $0 + $1.moved.count } == count)
            #expect(changes.allSatisfy { $0.moved.count <= rig.scanner.batchSize }, "\(changes.map(\.moved.count).max() ?? 0)")
            let after = try await rig.indexed()
            #expect(after.count == count)
            for (path, asset) in before { #expect(after["new" + path.dropFirst(3)]?.id == asset.id) }
        }
    }

    /// A root renamed while photod was down, with more photos than are held before the index is
    /// asked about them: each is moved as the walk goes (held to the walk's end, a million were
    /// 1.2 GB), keeps its id, and nothing is read. A file with two names is adopted once.
    @Test func aRootRenamedUnseenIsMovedAsTheWalkGoesAndAFileWithTwoNamesIsAdoptedOnce() async throws {
        let count = ReconcileFeed.holdLimit + 500
        var files: [String: [UInt8]] = [:]
        for index in 0..<count { files["old/\(index % 10)/\(index).jpg"] = TestPhoto.jpeg(index % 2 == 0 ? "Beach" : nil) }
        try await IndexingRig.with(files: files) { rig in
            _ = try await rig.scanner.reconcile(root: rig.path("old"), progress: ScanProgressTracker())
            let before = try await rig.indexed()
            try rig.move("old", "new")
            try FileManager.default.linkItem(atPath: rig.library + "/new/0/0.jpg", toPath: rig.library + "/new/0/00.jpg")
            let report = try await rig.scanner.reconcile(root: rig.path("new"), progress: ScanProgressTracker())
            #expect(report.moved == count)
            #expect(report.inserted == 1)
            #expect(report.read == 1)
            let after = try await rig.indexed()
            #expect(after.count == count + 1)
            for (path, asset) in before { #expect(after["new" + path.dropFirst(3)]?.id == asset.id) }
            #expect(after["new/0/00.jpg"].map { $0.id != before["old/0/0.jpg"]?.id } == true)
        }
    }

    /// Folders renamed inside the root while photod was down, with more rows vanishing than are
    /// kept (a million held 1.2 GB): the moves keep their ids as the walk goes, and a sweep of
    /// the index finds the rows that are really gone. A replaced file keeps its path's id.
    @Test func foldersRenamedInsideTheRootKeepTheirIdsAndASweepFindsWhatIsGone() async throws {
        var files: [String: [UInt8]] = ["b/kept.jpg": TestPhoto.jpeg("Hike")]
        for index in 0..<60 { files["a/\(index % 3)/\(index).jpg"] = TestPhoto.jpeg(index % 2 == 0 ? "Beach" : nil) }
        for index in 0..<40 { files["c/\(index).jpg"] = TestPhoto.jpeg("Snow") }
        try await IndexingRig.with(files: files) { rig in
            var scanner = rig.scanner
            scanner.vanishedLimit = 5
            let root = PathBytes(rig.library)
            _ = try await scanner.reconcile(root: root, progress: ScanProgressTracker())
            let before = try await rig.indexed()
            try rig.move("a", "z")  // renamed to sort after: its rows vanish before its files are found
            try rig.move("c", "0")  // renamed to sort before: its files are found before its rows vanish
            try FileManager.default.removeItem(atPath: rig.library + "/z/0/0.jpg")
            try FileManager.default.removeItem(atPath: rig.library + "/0/1.jpg")
            try rig.move("0/2.jpg", "c/2.jpg")  // moved back: unchanged at its old path
            try rig.move("b/kept.jpg", "b/moved.jpg")
            try rig.write("b/kept.jpg", TestPhoto.jpeg("Lake"))  // a new file where it was
            let report = try await scanner.reconcile(root: root, progress: ScanProgressTracker())
            #expect(report.removed == 2)
            #expect(report.moved == 59 + 38)
            let after = try await rig.indexed()
            for index in 1..<60 { #expect(after["z/\(index % 3)/\(index).jpg"]?.id == before["a/\(index % 3)/\(index).jpg"]?.id) }
            for index in [0] + Array(3..<40) { #expect(after["0/\(index).jpg"]?.id == before["c/\(index).jpg"]?.id) }
            #expect(after["c/2.jpg"]?.id == before["c/2.jpg"]?.id)
            #expect(after["b/kept.jpg"]?.id == before["b/kept.jpg"]?.id)
            #expect(after["b/kept.jpg"]?.group == "Lake")
            #expect(after["b/moved.jpg"].map { $0.id != before["b/kept.jpg"]?.id } == true)
            let count = 2 + 59 + 38 + 1
            #expect(after.count == count)
        }
    }

    @Test func manyNewFilesAreReadWhileTheWalkGoesOnAndAMoveAmongThemKeepsItsId() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            let root = PathBytes(rig.library)
            _ = try await rig.scanner.reconcile(root: root, progress: ScanProgressTracker())
            let id = try await rig.indexed()["a.jpg"]?.id
            // More new files than are held before the index is asked about them: they are read
            // before the walk ends, and the move, found after them, still pairs at the end.
            let count = ReconcileFeed.holdLimit + 50
            for index in 0..<count { try rig.write("new/\(index).txt", [UInt8(index & 0xFF)]) }
            try rig.move("a.jpg", "zz/a.jpg")
            let progress = ScanProgressTracker()
            let report = try await rig.scanner.reconcile(root: root, progress: progress)
            #expect(report.moved == 1)
            #expect(report.read == count)
            #expect(report.inserted == 0)
            #expect(report.scanned == count + 1)
            #expect(progress.snapshot.total == count)
            #expect(progress.snapshot.found == count + 1)
            #expect(try await rig.indexed()["zz/a.jpg"]?.id == id)
        }
    }

    @Test func aFirstIndexCountsItsFilesForProgress() async throws {
        var files: [String: [UInt8]] = ["a.jpg.xmp": Array("<x/>".utf8)]
        for index in 0..<20 { files["\(index % 3)/\(index).jpg"] = TestPhoto.jpeg("Beach") }
        try await IndexingRig.with(files: files) { rig in
            let progress = ScanProgressTracker()
            let report = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: progress)
            #expect(report.inserted == 20)
            // The sidecar is found, but it is not a file to read.
            #expect(progress.snapshot == ScanProgress(found: 21, indexed: 20, total: 20))
        }
    }
}
