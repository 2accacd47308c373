import Testing
@testable import Watcher

@Suite("Decoder: coalescing within a batch")
struct CoalescingTests {
    @Test func repeatedWritesAreReportedOnceInFirstOrder() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.create, "a.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
            event(1, WatchMask.closeWrite, "b.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
        ])
        #expect(actions == [.fileLinked(p("/lib/a.jpg")), .fileWritten(p("/lib/a.jpg")), .fileWritten(p("/lib/b.jpg"))])
    }

    @Test func writeThenDeleteLeavesOnlyTheRemoval() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.closeWrite, "a.jpg"),
            event(1, WatchMask.closeWrite, "b.jpg"),
            event(1, WatchMask.delete, "a.jpg"),
        ])
        #expect(actions == [.fileWritten(p("/lib/b.jpg")), .fileRemoved(p("/lib/a.jpg"))])
    }

    @Test func onlyRepeatsWithNothingBetweenAreMerged() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.delete, "a.jpg"),
            event(1, WatchMask.create, "a.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
            event(1, WatchMask.delete, "a.jpg"),
            event(1, WatchMask.create, "a.jpg"),
            event(1, WatchMask.closeWrite, "a.jpg"),
        ])
        // The first write is dropped (a removal follows it); the file exists at the end.
        #expect(actions == [
            .fileRemoved(p("/lib/a.jpg")), .fileLinked(p("/lib/a.jpg")),
            .fileRemoved(p("/lib/a.jpg")), .fileLinked(p("/lib/a.jpg")), .fileWritten(p("/lib/a.jpg")),
        ])
    }

    @Test func aWriteBeforeARenameIsKept() {
        var fixture = DecoderFixture()
        let actions = fixture.decode([
            event(1, WatchMask.closeWrite, "a.jpg"),
            event(1, WatchMask.movedFrom, "a.jpg", cookie: 1),
            event(1, WatchMask.movedTo, "b.jpg", cookie: 1),
            event(1, WatchMask.delete, "a.jpg"),
        ])
        #expect(actions == [
            .fileWritten(p("/lib/a.jpg")), .fileMoved(from: p("/lib/a.jpg"), to: p("/lib/b.jpg")),
            .fileRemoved(p("/lib/a.jpg")),
        ])
    }
}
