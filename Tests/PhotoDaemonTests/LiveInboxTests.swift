@testable import PhotoDaemon
import Testing

/// When the indexer may take what the watcher gathered: a moment after the last file closed
/// (its rename over a photo follows at once), never long after the first event.
@Suite struct LiveInboxTests {
    let start = ContinuousClock.now

    @Test func anEmptyInboxIsNeverReady() {
        #expect(LiveWatcher.Inbox().ready == nil)
    }

    @Test func eventsWithoutAWriteWaitTheGatheringFromTheFirst() {
        let inbox = LiveWatcher.Inbox(events: [], first: start, lastWrite: nil)
        #expect(inbox.ready == start + LiveWatcher.gathering)
    }

    @Test func aLaterWriteMovesTheMomentOn() {
        let inbox = LiveWatcher.Inbox(events: [], first: start, lastWrite: start + .milliseconds(5))
        #expect(inbox.ready == start + .milliseconds(5) + LiveWatcher.gathering)
    }

    @Test func writesThatKeepComingWaitNoLongerThanTheLongestGathering() {
        let inbox = LiveWatcher.Inbox(events: [], first: start, lastWrite: start + .seconds(1))
        #expect(inbox.ready == start + LiveWatcher.longestGathering)
        #expect(LiveWatcher.gathering < LiveWatcher.longestGathering)
    }
}
