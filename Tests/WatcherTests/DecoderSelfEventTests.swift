import Testing
@testable import Watcher

@Suite("Decoder: events about watched folders, overflow, unknown watches")
struct DecoderSelfEventTests {
    @Test(arguments: [WatchMask.deleteSelf, WatchMask.moveSelf, WatchMask.unmount])
    func rootGoneIsReported(mask: UInt32) {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, mask | directoryFlag)]) == [.watchedDirectoryGone(p("/lib"))])
    }

    @Test func subfolderDeleteSelfIsSilentAndForgotten() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(3, WatchMask.deleteSelf)]).isEmpty)
        #expect(fixture.decoder.path(of: 3) == nil)
        #expect(fixture.decoder.watchCount == 3)
    }

    @Test func subfolderMoveSelfIsSilentAndKeepsTheWatch() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(3, WatchMask.moveSelf)]).isEmpty)
        #expect(fixture.decoder.path(of: 3) == p("/lib/sub/deep"))
    }

    @Test func ignoredForgetsTheWatchSilently() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.deleteSelf), event(1, WatchMask.ignored)]) == [.watchedDirectoryGone(p("/lib"))])
        #expect(fixture.decoder.path(of: 1) == nil)
        #expect(fixture.decode([event(1, WatchMask.closeWrite, "a.jpg")]).isEmpty)
    }

    @Test func overflowIsReportedOncePerBatch() {
        var fixture = DecoderFixture()
        let overflow = event(-1, WatchMask.queueOverflow)
        let actions = fixture.decode([overflow, event(1, WatchMask.closeWrite, "a.jpg"), overflow])
        #expect(actions == [.overflow, .fileWritten(p("/lib/a.jpg"))])
    }

    @Test func eventsOnAnUnknownWatchAreDropped() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(99, WatchMask.closeWrite, "a.jpg"), event(99, WatchMask.deleteSelf)]).isEmpty)
        fixture.decoder.forget(2)
        #expect(fixture.decode([event(2, WatchMask.create, "b.jpg")]).isEmpty)
    }
}
