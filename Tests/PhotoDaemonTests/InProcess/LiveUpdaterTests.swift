import FileSystem
import Foundation
import Store
import Testing
import Watcher
@testable import PhotoDaemon

/// `LiveUpdater.batch`: watcher actions turned into one write, from the index and the files.
@Suite struct LiveUpdaterTests {
    private func batch(_ rig: IndexingRig, _ actions: [WatchAction]) async throws -> WriteBatch {
        try await LiveUpdater.batch(for: actions, store: rig.store, reader: rig.scanner.reader, files: rig.pool)
    }

    @Test func aNewPhotoIsAnInsertWithItsContent() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            let writes = try await batch(rig, [.fileWritten(rig.path("a.jpg"))])
            #expect(writes.inserts.map(\.path) == [rig.path("a.jpg")])
            #expect(writes.inserts.first?.content.groupSpelling == "Beach")
            #expect(writes.updates.isEmpty && writes.removals.isEmpty)
        }
    }

    @Test func aKnownPhotoRemovedOrMovedIsARemovalOrAnUpdateOfItsId() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach"), "b.jpg": TestPhoto.jpeg("Hike")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let ids = try await rig.indexed()
            try FileManager.default.removeItem(atPath: rig.library + "/a.jpg")
            try rig.move("b.jpg", "c.jpg")
            let writes = try await batch(rig, [.fileRemoved(rig.path("a.jpg")),
                                               .fileMoved(from: rig.path("b.jpg"), to: rig.path("c.jpg"))])
            #expect(writes.removals == [ids["a.jpg"]?.id].compactMap { $0 })
            #expect(writes.updates.map(\.id) == [ids["b.jpg"]?.id].compactMap { $0 })
            #expect(writes.updates.first?.path == rig.path("c.jpg"))
            // Same bytes: the move is not read again.
            #expect(writes.updates.first?.content == nil)
            #expect(writes.inserts.isEmpty)
        }
    }

    /// A limited app granted "shown.jpg" must never read another photo under that id: a photo
    /// of the library moved over it stays itself, and the replaced photo leaves.
    @Test func aPhotoMovedOverAnotherKeepsItsOwnIdAndTheReplacedOneIsRemoved() async throws {
        try await IndexingRig.with(files: ["shown.jpg": TestPhoto.jpeg("Beach"), "hidden.jpg": TestPhoto.jpeg("Private")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let ids = try await rig.indexed()
            let shown = try #require(ids["shown.jpg"]?.id)
            let hidden = try #require(ids["hidden.jpg"]?.id)
            #expect(rename(rig.library + "/hidden.jpg", rig.library + "/shown.jpg") == 0)
            let writes = try await batch(rig, [.fileMoved(from: rig.path("hidden.jpg"), to: rig.path("shown.jpg"))])
            #expect(writes.removals == [shown])
            #expect(writes.updates.map(\.id) == [hidden])
            #expect(writes.updates.first?.path == rig.path("shown.jpg"))
            #expect(writes.inserts.isEmpty)
            _ = try await rig.store.write { try $0.apply(writes) }
            let after = try await rig.indexed()
            #expect(after["shown.jpg"]?.id == hidden)
            #expect(after.count == 1)
        }
    }

    /// An editor's save: a file the index does not hold, renamed over a photo, is that photo's
    /// new bytes under its id.
    @Test func aNewFileRenamedOverAPhotoUpdatesThatPhoto() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let id = try #require(try await rig.indexed()["a.jpg"]?.id)
            try rig.write("a.jpg.new", TestPhoto.jpeg("Beach at night"))
            #expect(rename(rig.library + "/a.jpg.new", rig.library + "/a.jpg") == 0)
            let writes = try await batch(rig, [.fileWritten(rig.path("a.jpg.new")),
                                               .fileMoved(from: rig.path("a.jpg.new"), to: rig.path("a.jpg"))])
            #expect(writes.updates.map(\.id) == [id])
            #expect(writes.updates.first?.content?.groupSpelling == "Beach at night")
            #expect(writes.removals.isEmpty && writes.inserts.isEmpty)
        }
    }

    @Test func aRewrittenPhotoIsReadAgainUnderItsId() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let id = try await rig.indexed()["a.jpg"]?.id
            try rig.write("a.jpg", TestPhoto.jpeg("Beach at night"))
            let writes = try await batch(rig, [.fileWritten(rig.path("a.jpg"))])
            #expect(writes.updates.map(\.id) == [id].compactMap { $0 })
            #expect(writes.updates.first?.content?.groupSpelling == "Beach at night")
        }
    }

    @Test func aFileThatIsNotAPhotoWritesNothing() async throws {
        try await IndexingRig.with(files: ["notes.txt": Array("hello".utf8)]) { rig in
            let writes = try await batch(rig, [.fileWritten(rig.path("notes.txt"))])
            #expect(writes.isEmpty)
        }
    }
}
