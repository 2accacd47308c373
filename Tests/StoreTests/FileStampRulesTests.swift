import Testing
@testable import Store

/// The stamp rules every part of indexing shares.
@Suite struct FileStampRulesTests {
    let base = FileStamp(device: 1, inode: 10, size: 100, mtimeNs: 5_000, sidecar: 7)

    @Test func aNewMtimeOrSizeIsOtherBytesWhateverTheIdentity() {
        var touched = base
        touched.mtimeNs += 1
        var grown = base
        grown.size += 1
        #expect(!touched.hasSameBytes(as: base))
        #expect(!grown.hasSameBytes(as: base))
        var elsewhere = base
        elsewhere.inode = 99
        #expect(elsewhere.hasSameBytes(as: base))
    }

    @Test func aReusedInodeWithOtherBytesIsNotTheSameFile() {
        var reused = base
        reused.mtimeNs = 9_000
        #expect(!reused.isSameFile(as: base))
        var otherDevice = base
        otherDevice.device = 2
        #expect(!otherDevice.isSameFile(as: base))
        var sidecarChanged = base
        sidecarChanged.sidecar = 8
        #expect(sidecarChanged.isSameFile(as: base))
    }

    @Test func aChangedSidecarMeansReadAgainThoughTheFileIsTheSame() {
        var sidecarChanged = base
        sidecarChanged.sidecar = 0
        #expect(!sidecarChanged.isUnchanged(since: base))
        #expect(base.isUnchanged(since: base))
    }
}
