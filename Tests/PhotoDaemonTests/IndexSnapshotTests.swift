import FileSystem
import NIOPosix
import PhotoTestSupport
import Store
import Testing
import Watcher
@testable import PhotoDaemon

/// A live batch reads the index before it touches a file: the snapshot must hold everything
/// `LiveUpdater` asks about, since it judges the files on the file pool with no store call.
@Suite struct IndexSnapshotTests {
    private static let content = AssetContent(groupKey: "beach", groupSpelling: "Beach", format: "jpeg")

    /// A store in `dir` holding `files` (path, stamp), and a started file pool.
    private func fixture(_ dir: TemporaryDirectory, _ files: [(PathBytes, FileStamp)]) async throws -> (Store, NIOThreadPool) {
        let store = try Store(path: dir.file("state/index.sqlite"))
        var batch = WriteBatch()
        batch.inserts = files.map { WriteBatch.Insert(path: $0.0, stamp: $0.1, content: Self.content) }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return (store, pool)
    }

    @Test func itHoldsEveryNamedPathAndWhereANewFileWasIndexedBefore() async throws {
        let dir = try TemporaryDirectory()
        let arrived = PathBytes(try dir.write("lib/new.jpg", Array("photo bytes".utf8)))
        guard case .success(let info) = FileSystem.linkStatus(arrived) else { throw FileSystemProbeError() }
        let kept = PathBytes(dir.file("lib/kept.jpg"))
        let gone = PathBytes(dir.file("elsewhere/gone.jpg"))
        let (store, pool) = try await fixture(dir, [
            (kept, FileStamp(device: 1, inode: 1, size: 1, mtimeNs: 1)), (gone, FileStamp(info)),
        ])
        let snapshot = try await IndexSnapshot.read(
            for: [.fileWritten(kept), .fileArrived(arrived)], from: store, sidecars: false, files: pool)
        #expect(snapshot.file(at: kept)?.path == kept)
        #expect(snapshot.file(at: arrived) == nil)
        // The indexed file on the new file's inode is gone from its own path: the same asset, moved.
        #expect(snapshot.movedFiles.asset(for: FileStamp(info))?.path == gone)
        try await pool.shutdownGracefully()
    }

    @Test func aNamedSidecarBringsEveryImageItMayDescribe() async throws {
        let dir = try TemporaryDirectory()
        let jpeg = PathBytes(dir.file("lib/IMG_1.jpg"))
        let raw = PathBytes(dir.file("lib/IMG_1.cr3"))
        let other = PathBytes(dir.file("lib/IMG_2.jpg"))
        let (store, pool) = try await fixture(dir, [
            (jpeg, FileStamp(device: 1, inode: 1, size: 1, mtimeNs: 1)),
            (raw, FileStamp(device: 1, inode: 2, size: 1, mtimeNs: 1)),
            (other, FileStamp(device: 1, inode: 3, size: 1, mtimeNs: 1)),
        ])
        let sidecar = PathBytes(dir.file("lib/IMG_1.xmp"))
        let snapshot = try await IndexSnapshot.read(for: [.fileWritten(sidecar)], from: store, sidecars: true, files: pool)
        let stem = PathBytes(dir.file("lib/IMG_1."))
        #expect(Set(snapshot.files(withPrefix: stem).map(\.path)) == [jpeg, raw])
        #expect(snapshot.file(at: raw)?.path == raw)
        #expect(snapshot.file(at: other) == nil)
        let ignored = try await IndexSnapshot.read(for: [.fileWritten(sidecar)], from: store, sidecars: false, files: pool)
        #expect(ignored.files(withPrefix: stem).isEmpty)
        try await pool.shutdownGracefully()
    }
}

/// The test's own file could not be examined.
private struct FileSystemProbeError: Error {}
