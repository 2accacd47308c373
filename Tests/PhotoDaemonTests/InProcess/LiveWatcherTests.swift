import Foundation
import PhotoTestSupport
import Testing
import Watcher
@testable import PhotoDaemon

/// `LiveWatcher` on real inotify: what happens on disk reaches the index through the indexer.
@Suite struct LiveWatcherTests {
    /// Runs `body` with the rig's roots watched and the watcher and the command loop running.
    private func watching(_ rig: IndexingRig, _ body: () async throws -> Void) async throws {
        let watcher = LiveWatcher(inotify: rig.inotify, coverage: rig.coverage, indexer: rig.indexer, state: rig.state,
                                  pollInterval: 1, logger: rig.log.logger())
        rig.coverage.coverRoots()
        let running = Task { await watcher.run() }
        defer { running.cancel() }
        try await rig.withCommandLoop {
            _ = try await rig.indexer.reconcile(reason: "start-up")
            try await body()
        }
    }

    @Test func aPhotoWrittenInANewFolderIsIndexed() async throws {
        try await IndexingRig.with { rig in
            try await watching(rig) {
                try rig.write("2024/summer/a.jpg", TestPhoto.jpeg("Beach"))
                #expect(try await eventually { try await rig.indexed()["2024/summer/a.jpg"]?.group == "Beach" })
            }
        }
    }

    @Test func aRenameInsideTheLibraryKeepsTheId() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            try await watching(rig) {
                let id = try await rig.indexed()["a.jpg"]?.id
                try rig.move("a.jpg", "b.jpg")
                #expect(try await eventually { try await rig.indexed()["b.jpg"]?.id == id })
                #expect(try await rig.indexed()["a.jpg"] == nil)
            }
        }
    }

    @Test func aPhotoMovedOutOfTheLibraryLeavesOnceItsRenameGraceIsOver() async throws {
        // The MOVED_FROM is held for its pair; only the watcher's expiry timer turns it into a removal.
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            try await watching(rig) {
                try FileManager.default.moveItem(atPath: rig.library + "/a.jpg", toPath: rig.dir.file("outside.jpg"))
                #expect(try await eventually { try await rig.indexed().isEmpty })
            }
        }
    }

    @Test func aFolderPastTheWatchBudgetIsPolledAndStillIndexed() async throws {
        try await IndexingRig.with { rig in
            let coverage = FolderCoverage(watches: WatchSet(inotify: rig.inotify, budget: 1), roots: rig.roots,
                                          state: rig.state, pollInterval: 1, logger: rig.log.logger())
            let indexer = Indexer(roots: rig.roots, scanner: rig.scanner, coverage: coverage, state: rig.state,
                                  logger: rig.log.logger())
            let watcher = LiveWatcher(inotify: rig.inotify, coverage: coverage, indexer: indexer, state: rig.state,
                                      pollInterval: 1, logger: rig.log.logger())
            try FileManager.default.createDirectory(atPath: rig.library + "/deep", withIntermediateDirectories: true)
            coverage.coverRoots()
            #expect(rig.state.coverage(of: rig.library) == .polling)
            let loop = Task { await indexer.runCommands() }
            let running = Task { await watcher.run() }
            defer { loop.cancel(); running.cancel() }
            try rig.write("deep/a.jpg", TestPhoto.jpeg("Snow"))
            // A poll a second; the bound is generous because under `make test` five test
            // processes share two cores (it once took 14 s there, never more than 1.1 s alone).
            #expect(try await eventually(within: 60) { try await rig.indexed()["deep/a.jpg"]?.group == "Snow" })
            #expect(rig.log.contains("the inotify watch limit is reached"))
        }
    }
}
