import Testing
@testable import Watcher

@Suite("Decoder: folders")
struct DecoderFolderTests {
    @Test func folderRenameRewritesTheWatchedPathsBelowIt() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 11),
            event(1, WatchMask.movedTo | directoryFlag, "renamed", cookie: 11),
            event(2, WatchMask.moveSelf),
        ])
        #expect(actions == [.directoryMoved(from: p("/lib/sub"), to: p("/lib/renamed"))])
        #expect(fixture.decoder.path(of: 2) == p("/lib/renamed"))
        #expect(fixture.decoder.path(of: 3) == p("/lib/renamed/deep"))
        #expect(fixture.decoder.watchCount == 4)
        let later = fixture.decode([event(3, WatchMask.closeWrite, "x.jpg")])
        #expect(later == [.fileWritten(p("/lib/renamed/deep/x.jpg"))])
    }

    @Test func folderRenameRespectsThePathBoundary() {
        var fixture = DecoderFixture()
        fixture.decoder.watched(5, path: p("/lib/subway"))
        _ = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 11),
            event(1, WatchMask.movedTo | directoryFlag, "renamed", cookie: 11),
        ])
        #expect(fixture.decoder.path(of: 5) == p("/lib/subway"))
    }

    @Test func newFolderIsCreated() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.create | directoryFlag, "new")]) == [.directoryCreated(p("/lib/new"))])
    }

    @Test func deletedFolderForgetsItsWatches() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([event(1, WatchMask.delete | directoryFlag, "sub")])
        #expect(actions == [.directoryRemoved(p("/lib/sub"))])
        #expect(fixture.decoder.path(of: 2) == nil)
        #expect(fixture.decoder.path(of: 3) == nil)
        #expect(fixture.decoder.watchCount == 2)
    }

    @Test func folderMovedOutIsRemovedAfterTheGraceAndItsWatchesRetired() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 21)]).isEmpty)
        #expect(fixture.decoder.path(of: 2) == p("/lib/sub"))
        #expect(fixture.expire(at: .milliseconds(25)) == [.directoryRemoved(p("/lib/sub"))])
        #expect(fixture.decoder.path(of: 2) == nil)
        #expect(fixture.decoder.path(of: 3) == nil)
        #expect(Set(fixture.decoder.retired) == [2, 3])
    }

    @Test func folderMovedInIsCreated() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([event(4, WatchMask.movedTo | directoryFlag, "album", cookie: 77)])
        #expect(actions == [.directoryCreated(p("/other/album"))])
    }

    @Test func hiddenFolderRenamesAreArrivalsAndRemovals() {
        var fixture = DecoderFixture()
        let shown = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, ".staging", cookie: 1),
            event(1, WatchMask.movedTo | directoryFlag, "album", cookie: 1),
        ])
        #expect(shown == [.directoryCreated(p("/lib/album"))])
        let hidden = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 2),
            event(1, WatchMask.movedTo | directoryFlag, ".sub", cookie: 2),
        ])
        #expect(hidden == [.directoryRemoved(p("/lib/sub"))])
        #expect(fixture.decoder.path(of: 3) == nil)
    }

    @Test func renameOverAnEmptyWatchedFolderDropsTheOldWatch() {
        var fixture = DecoderFixture()
        fixture.decoder.watched(6, path: p("/lib/target"))
        let actions = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 4),
            event(1, WatchMask.movedTo | directoryFlag, "target", cookie: 4),
            event(6, WatchMask.deleteSelf),
            event(6, WatchMask.ignored),
        ])
        #expect(actions == [.directoryMoved(from: p("/lib/sub"), to: p("/lib/target"))])
        #expect(fixture.decoder.path(of: 2) == p("/lib/target"))
        #expect(fixture.decoder.path(of: 6) == nil)
        #expect(fixture.decode([event(2, WatchMask.closeWrite, "y.jpg")]) == [.fileWritten(p("/lib/target/y.jpg"))])
    }
}
