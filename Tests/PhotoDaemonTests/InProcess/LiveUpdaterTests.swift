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
            _ = try await rig.scanner.reconcile(root: Array(rig.library.utf8), progress: ScanProgressTracker())
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

    @Test func aRewrittenPhotoIsReadAgainUnderItsId() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            _ = try await rig.scanner.reconcile(root: Array(rig.library.utf8), progress: ScanProgressTracker())
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
