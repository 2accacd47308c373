import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Store
import Testing
@testable import PhotoDaemon

/// A reconcile over folders whose fingerprints are recorded (`FolderCheck`): what it skips, and
/// that nothing changed while photod was down is missed for it.
@Suite struct FolderCheckScanTests {
    private static let lake = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt><rdf:li xml:lang="x-default">Lake</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"#.utf8)

    private static func reconcile(_ rig: IndexingRig, with scanner: PhotoDaemon.Scanner? = nil) async throws -> ScanReport {
        try await (scanner ?? rig.scanner).reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
    }

    /// The first index records nothing (its walk names files without stat-ing them); the next
    /// reconcile compares file by file and records every folder with files; the one after
    /// checks the folders alone, and does not even read the text file again.
    @Test func aReconcileOverUnchangedFoldersChecksTheirFingerprintsOnly() async throws {
        let files: [String: [UInt8]] = ["a/1.jpg": TestPhoto.jpeg("Beach"), "a/2.jpg": TestPhoto.jpeg("Hike"),
                                        "b/c/3.jpg": TestPhoto.jpeg(nil), "notes.txt": Array("not a photo".utf8)]
        try await IndexingRig.with(files: files) { rig in
            let root = PathBytes(rig.library)
            _ = try await Self.reconcile(rig)
            #expect(try await rig.store.read { try $0.recordedFingerprints(under: root) }.folders.isEmpty)
            let second = try await Self.reconcile(rig)
            #expect(second.read == 1, "the text file is read again, found not to be a photo")
            let recorded = try await rig.store.read { try $0.recordedFingerprints(under: root) }
            #expect(Set(recorded.folders.keys) == [root.folderPrefix, rig.path("a").folderPrefix, rig.path("b/c").folderPrefix])
            let third = try await Self.reconcile(rig)
            #expect(third.read == 0)
            #expect(third.unchanged == 4 && third.scanned == 4)
            #expect(rig.log.contains("3 as recorded, none changed"))
        }
    }

    @Test func changesMadeWhileNobodyWatchedAreFoundInTheFoldersThatChanged() async throws {
        let files: [String: [UInt8]] = ["a/1.jpg": TestPhoto.jpeg("Beach"), "a/2.jpg": TestPhoto.jpeg(nil),
                                        "b/3.jpg": TestPhoto.jpeg("Snow"), "c/4.jpg": TestPhoto.jpeg("Dune"),
                                        "d/5.jpg": TestPhoto.jpeg("Rain"), "e/6.jpg": TestPhoto.jpeg("Fog")]
        try await IndexingRig.with(files: files) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let before = try await rig.indexed()
            try rig.move("a/1.jpg", "new/1.jpg")
            try FileManager.default.removeItem(atPath: rig.library + "/b/3.jpg")
            try FileManager.default.removeItem(atPath: rig.library + "/c")
            try rig.write("d/5.jpg", TestPhoto.jpeg("Drizzle"))
            try rig.write("a/2.jpg.xmp", Self.lake)
            try rig.write("f/7.jpg", TestPhoto.jpeg("Moss"))
            let report = try await Self.reconcile(rig)
            #expect(report.moved == 1)
            #expect(report.removed == 2)
            #expect(report.updated == 2)
            #expect(report.inserted == 1)
            let after = try await rig.indexed()
            #expect(after["new/1.jpg"]?.id == before["a/1.jpg"]?.id)
            #expect(after["b/3.jpg"] == nil && after["c/4.jpg"] == nil)
            #expect(after["d/5.jpg"]?.group == "Drizzle")
            #expect(after["a/2.jpg"]?.group == "Lake")
            #expect(after["e/6.jpg"]?.id == before["e/6.jpg"]?.id)
            #expect(rig.log.contains("1 as recorded, some changed"), "only e/ was as recorded")
            #expect(report.scanned == 6 && report.unchanged == 1, "e/6.jpg, left out of the walk, is counted as compared")
            let again = try await Self.reconcile(rig)
            #expect(again.read == 0 && again.changed == 0)
            #expect(rig.log.contains("5 as recorded, none changed"))
        }
    }

    /// A stem holds the rows of its folder and of the folders under it that were added after it
    /// (`PathStems`): a change in any of them has the stem's rows compared, the matched folders'
    /// listed by name, and no row of a folder that matched is taken for gone.
    @Test func aChangeInAFolderSharingItsStemWithMatchedOnesLosesNothing() async throws {
        let files: [String: [UInt8]] = ["a/1.jpg": TestPhoto.jpeg("Beach"), "a/b/2.jpg": TestPhoto.jpeg("Hike"),
                                        "a/b/c/3.jpg": TestPhoto.jpeg("Snow"), "d/4.jpg": TestPhoto.jpeg("Rain")]
        try await IndexingRig.with(files: files) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let stems = try #require(try await rig.store.read { try $0.stems(under: PathBytes(rig.library)) })
            #expect(stems.map(\.path) == [rig.path("a").folderPrefix, rig.path("d").folderPrefix],
                    "a/b/ and a/b/c/ are in a/'s stem")
            let before = try await rig.indexed()
            try rig.write("a/b/5.jpg", TestPhoto.jpeg("Moss"))
            try FileManager.default.removeItem(atPath: rig.library + "/a/b/c/3.jpg")
            let report = try await Self.reconcile(rig)
            #expect(report.inserted == 1 && report.removed == 1 && report.updated == 0 && report.moved == 0)
            let after = try await rig.indexed()
            #expect(Set(after.keys) == ["a/1.jpg", "a/b/2.jpg", "a/b/5.jpg", "d/4.jpg"])
            for kept in ["a/1.jpg", "a/b/2.jpg", "d/4.jpg"] { #expect(after[kept]?.id == before[kept]?.id) }
            #expect(report.scanned == 4 && report.unchanged == 3)
            let again = try await Self.reconcile(rig)
            #expect(again.changed == 0 && again.read == 0)
        }
    }

    /// An index whose stems were rewritten to another root (what bench/scale_bench.py makes to
    /// time a root renamed while photod was down): the records under the library no longer
    /// stand for its rows, so the reconcile compares file by file and finds every photo moved.
    @Test func stemsRewrittenElsewhereAreFoundMovedNotUnchanged() async throws {
        try await IndexingRig.with(files: ["a/1.jpg": TestPhoto.jpeg("Beach"), "b/2.jpg": TestPhoto.jpeg("Hike")]) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let before = try await rig.indexed()
            let db = try SQLiteConnection(path: rig.dir.file("index.sqlite"), create: false)
            try db.execute("""
                UPDATE folders SET path = CAST('\(rig.library)-before-rename/' || substr(CAST(path AS TEXT), \(rig.library.utf8.count + 2)) AS BLOB)
                """)
            let report = try await Self.reconcile(rig)
            #expect(report.moved == 2 && report.unchanged == 0)
            let after = try await rig.indexed()
            #expect(after["a/1.jpg"]?.id == before["a/1.jpg"]?.id && after["b/2.jpg"]?.id == before["b/2.jpg"]?.id)
        }
    }

    /// A row written by anything marks its folder unknown, so the next reconcile compares it
    /// and puts it right. Without the trigger the check trusts the record: it compares nothing.
    @Test func aRowWrittenBehindTheReconcilesBackIsComparedAgainBecauseItsFolderWasMarked() async throws {
        try await IndexingRig.with(files: ["a/1.jpg": TestPhoto.jpeg("Beach"), "b/2.jpg": TestPhoto.jpeg("Hike")]) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let db = try SQLiteConnection(path: rig.dir.file("index.sqlite"), create: false)
            try db.execute("UPDATE assets SET size = size + 1 WHERE name = CAST('1.jpg' AS BLOB)")
            let marked = try await Self.reconcile(rig)
            #expect(marked.updated == 1, "the row's stamp differs from the file's: read again")
            try db.execute("DROP TRIGGER folder_fingerprints_update")
            try db.execute("UPDATE assets SET size = size + 1 WHERE name = CAST('2.jpg' AS BLOB)")
            let trusted = try await Self.reconcile(rig)
            #expect(trusted.read == 0, "with no trigger to mark it, the record stands for the folder")
        }
    }

    /// The description sources are in every fingerprint: reading sidecars or not changes what
    /// a file's description is, though no file changed. (The sidecar's own stamp is in its
    /// image's, so this fails without the seed.)
    @Test func otherDescriptionSourcesCompareEveryFileAgain() async throws {
        let files: [String: [UInt8]] = ["a/1.jpg": TestPhoto.jpeg(nil), "a/1.jpg.xmp": Self.lake]
        try await IndexingRig.with(files: files) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            #expect(try await rig.indexed()["a/1.jpg"]?.group == "Lake")
            let noSidecars = PhotoDaemon.Scanner(store: rig.store, reader: AssetReader(rules: GroupingRules(), sources: [.exif]),
                                                 pool: rig.pool, parallelism: 2, batchSize: 3, logger: rig.log.logger())
            let report = try await Self.reconcile(rig, with: noSidecars)
            #expect(report.updated == 1)
            #expect(try await rig.indexed()["a/1.jpg"]?.group == "Other")
        }
    }

    /// A checked restart lists every folder as a walk does, so it removes the temporary files a
    /// killed import left (hidden: they are in no fingerprint) and still finds nothing changed.
    @Test func aCheckedReconcileStillRemovesLeftoverTemporaryFiles() async throws {
        try await IndexingRig.with(files: ["a/1.jpg": TestPhoto.jpeg("Beach")]) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let leftover = try rig.dir.write("library/a/.photod-new-abc", Array("half a photo".utf8))
            try Backdate.set(leftover, secondsAgo: LeftoverTemporaries.minimumAge + 60)
            let report = try await Self.reconcile(rig)
            #expect(report.read == 0 && report.unchanged == 1)
            #expect(rig.log.contains("1 as recorded, none changed"))
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(rig.log.contains("removed 1 temporary files left by an import or description cut short"))
        }
    }

    /// A shutdown cancels the check between folders: the reconcile says it was cancelled and
    /// does not report the root as compared.
    @Test func aCancelledCheckStopsAndSaysSo() async throws {
        var files: [String: [UInt8]] = [:]
        for folder in 0..<40 { files["f\(folder)/1.jpg"] = TestPhoto.jpeg("Beach") }
        try await IndexingRig.with(files: files) { rig in
            _ = try await Self.reconcile(rig)
            _ = try await Self.reconcile(rig)
            let cancelled = Task { try await Self.reconcile(rig) }
            cancelled.cancel()
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            let again = try await Self.reconcile(rig)
            #expect(again.unchanged == 40 && again.read == 0)
        }
    }

    @Test func onlyStemsWithNoChangedFolderAreLeftOut() {
        let stems: [(id: Int64, path: PathBytes)] = [(1, PathBytes("/l/a/")), (2, PathBytes("/l/b/")), (3, PathBytes("/l/c/"))]
        let untouched = UntouchedStems(stems: stems, changed: [PathBytes("/l/b/x/"), PathBytes("/l/z/")])
        #expect(untouched.ids == [1, 3])
        #expect(untouched.leavesOutFiles(of: PathBytes("/l/a/")))
        #expect(untouched.leavesOutFiles(of: PathBytes("/l/a/deeper/")), "in a/'s stem")
        #expect(!untouched.leavesOutFiles(of: PathBytes("/l/b/")))
        #expect(!untouched.leavesOutFiles(of: PathBytes("/l/b/y/")))
        #expect(untouched.leavesOutFiles(of: PathBytes("/l/d/")), "in no stem: no row is there")
        #expect(untouched.leavesOutFiles(of: PathBytes("/l/bb/")), "b/ is no prefix of bb/")
    }

    @Test func aRecordLeavesOutTheFoldersItCannotVouchFor() {
        let record = FingerprintRecord(folders: [(PathBytes("/l/a/"), FolderFingerprint()), (PathBytes("/l/b/"), FolderFingerprint())],
                                       unclean: [PathBytes("/l/b/")], complete: true)
        #expect(record.folders.map(\.0) == [PathBytes("/l/a/")])
        let unclean = UncleanFolders()
        unclean.add(file: PathBytes("/l/c/x.jpg"))
        unclean.add(folders: [PathBytes("/l/d")])
        #expect(unclean.all == [PathBytes("/l/c/"), PathBytes("/l/d/")])
    }
}
