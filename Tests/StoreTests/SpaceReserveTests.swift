import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// The room kept beside the index for a start on a full disk (`SpaceReserve`), on a real full
/// file system (a small tmpfs, so root only).
@Suite(.serialized) struct SpaceReserveTests {
    private static var isRoot: Bool { getuid() == 0 }

    @Test(.enabled(if: isRoot, "mounting a tmpfs needs root; skipped"))
    func anIndexOnADiskFullToItsLastBlockOpensServesAndIsFullUntilThereIsRoom() async throws {
        let dir = try TemporaryDirectory()
        let folder = dir.file("state")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await TmpfsMount.with(at: folder, options: "size=4m") {
            let path = folder + "/index.sqlite"
            do {
                let store = try Store(path: path)
                var batch = WriteBatch()
                batch.inserts = (1...3).map { photo("/lib/\($0).jpg", Int64($0), "Beach") }
                _ = try store.database.apply(batch)
                #expect(DurableFile.size(of: SpaceReserve.path(for: path)) == SpaceReserve.bytes)
            }
            // Closed (its -shm and -wal removed), then the disk fills up to its last block.
            let filler = folder + "/filler"
            _ = try await ProcessRunner.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(filler)' bs=4k 2>/dev/null; exit 0"])

            let store = try Store(path: path)
            #expect(store.opening.reserveReleased?.contains("the disk was full") == true)
            #expect(try store.database.totals().assets == 3, "the index is served as it is")
            var late = WriteBatch()
            late.inserts = [photo("/lib/late.jpg", 9, "Late")]
            let refused = #expect(throws: SQLiteError.self) { try store.database.apply(late) }
            #expect(refused?.isOutOfSpace == true, "full until the reserve is back: \(String(describing: refused))")

            try FileManager.default.removeItem(atPath: filler)
            _ = try store.database.apply(late)
            #expect(try store.database.totals().assets == 4)
            #expect(DurableFile.size(of: SpaceReserve.path(for: path)) == SpaceReserve.bytes, "made again with room")
        }
    }
}
