import FileSystem
import Foundation
import Store
import Testing
@testable import PhotoDaemon

/// `AssetFile.open`: a limited caller gets an asset's file only while it is the file the asset
/// was indexed from, so a photo put at a granted path is never read under the granted id.
@Suite struct AssetFileTests {
    private static let limited = LibraryAccess.selection(StoreSelection(groupKeys: [], ids: []))

    private func opens(_ asset: StoredAsset, _ access: LibraryAccess) -> Bool {
        switch AssetFile.open(asset, for: access) {
        case .success: return true
        case .failure: return false
        }
    }

    @Test func aFilePutAtTheAssetsPathIsRefusedToALimitedCallerUntilTheIndexCatchesUp() async throws {
        try await IndexingRig.with(files: ["shown.jpg": TestPhoto.jpeg("Beach"), "hidden.jpg": TestPhoto.jpeg("Private")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let id = try #require(try await rig.indexed()["shown.jpg"]?.id)
            let asset = try #require(try await rig.store.read { try $0.assets(ids: [id]) }.first)
            #expect(opens(asset, Self.limited), "the indexed file itself")
            #expect(rename(rig.library + "/hidden.jpg", rig.library + "/shown.jpg") == 0)
            #expect(!opens(asset, Self.limited), "another file at the granted path")
            #expect(opens(asset, .everything), "the owner sees every file anyway")
        }
    }

    @Test func aFileRewrittenInPlaceIsStillTheAsset() async throws {
        try await IndexingRig.with(files: ["shown.jpg": TestPhoto.jpeg("Beach")]) { rig in
            _ = try await rig.scanner.reconcile(root: PathBytes(rig.library), progress: ScanProgressTracker())
            let id = try #require(try await rig.indexed()["shown.jpg"]?.id)
            let asset = try #require(try await rig.store.read { try $0.assets(ids: [id]) }.first)
            let handle = try #require(FileHandle(forWritingAtPath: rig.library + "/shown.jpg"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0]))
            try handle.close()
            #expect(opens(asset, Self.limited))
        }
    }
}
