import Testing
@testable import Watcher

@Suite("Decoder: files")
struct DecoderFileTests {
    @Test func createThenCloseWriteIsLinkedThenWritten() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.create, "a.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
        ])
        #expect(actions == [.fileLinked(p("/lib/a.jpg")), .fileWritten(p("/lib/a.jpg"))])
    }

    @Test func renameInOneFolderIsAMove() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(2, WatchMask.movedFrom, "a.jpg", cookie: 7),
            event(2, WatchMask.movedTo, "b.jpg", cookie: 7),
        ])
        #expect(actions == [.fileMoved(from: p("/lib/sub/a.jpg"), to: p("/lib/sub/b.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func moveBetweenWatchedFoldersIsAMove() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.movedFrom, "a.jpg", cookie: 9),
            event(4, WatchMask.movedTo, "a.jpg", cookie: 9),
        ])
        #expect(actions == [.fileMoved(from: p("/lib/a.jpg"), to: p("/other/a.jpg"))])
    }

    @Test func atomicReplaceIsAnArrival() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.create, ".photo.jpg.tmp"),
            event(1, WatchMask.closeWrite, ".photo.jpg.tmp"),
            event(1, WatchMask.movedFrom, ".photo.jpg.tmp", cookie: 3),
            event(1, WatchMask.movedTo, "photo.jpg", cookie: 3),
        ])
        #expect(actions == [.fileArrived(p("/lib/photo.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func deleteIsARemoval() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(3, WatchMask.delete, "x.png")]) == [.fileRemoved(p("/lib/sub/deep/x.png"))])
    }

    @Test func moveOutIsHeldThenRemovedAfterTheGrace() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.movedFrom, "a.jpg", cookie: 5)]).isEmpty)
        #expect(fixture.decoder.nextDeadline == DecoderFixture.start + WatchEventDecoder.pairingGrace)
        #expect(fixture.expire(at: .milliseconds(19)).isEmpty)
        #expect(fixture.expire(at: WatchEventDecoder.pairingGrace) == [.fileRemoved(p("/lib/a.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
        #expect(fixture.expire(at: .seconds(1)).isEmpty)
    }

    @Test func moveInFromOutsideIsAnArrival() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(2, WatchMask.movedTo, "b.jpg", cookie: 44)]) == [.fileArrived(p("/lib/sub/b.jpg"))])
    }

    @Test func pairSplitAcrossBatchesWithinTheGraceIsAMove() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.movedFrom, "a.jpg", cookie: 8)]).isEmpty)
        let actions = fixture.decode([event(2, WatchMask.movedTo, "a.jpg", cookie: 8)], at: .milliseconds(5))
        #expect(actions == [.fileMoved(from: p("/lib/a.jpg"), to: p("/lib/sub/a.jpg"))])
        #expect(fixture.expire(at: .seconds(1)).isEmpty)
    }

    @Test func heldSourceIsRemovedBeforeItsNameIsReused() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.movedFrom, "a.jpg", cookie: 8),
            event(1, WatchMask.create, "a.jpg"),
        ])
        #expect(actions == [.fileRemoved(p("/lib/a.jpg")), .fileLinked(p("/lib/a.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func hiddenNamesAreOutsideTheLibrary() {
        var fixture = DecoderFixture()
        let dropped = fixture.decode([
            event(1, WatchMask.create, ".a"),
            event(1, WatchMask.closeWrite, ".a"),
            event(1, WatchMask.delete, ".a"),
            event(1, WatchMask.create | directoryFlag, ".cache"),
            event(1, WatchMask.movedFrom, ".b", cookie: 1),
            event(1, WatchMask.movedTo, ".c", cookie: 1),
            event(1, WatchMask.movedTo, ".d", cookie: 2),
        ])
        #expect(dropped.isEmpty)
        let hiding = fixture.decode([
            event(1, WatchMask.movedFrom, "visible.jpg", cookie: 3),
            event(1, WatchMask.movedTo, ".trash.jpg", cookie: 3),
        ])
        #expect(hiding == [.fileRemoved(p("/lib/visible.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }
}
