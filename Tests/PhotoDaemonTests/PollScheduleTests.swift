import FileSystem
import Testing
@testable import PhotoDaemon

/// When each polled folder is due, and how a pass over its budget puts back that folder alone:
/// the poll loop's decisions, told made-up instants instead of sleeping.
@Suite struct PollScheduleTests {
    let start = ContinuousClock.now
    let nas = PathBytes("/srv/nas")
    let phone = PathBytes("/home/ann/Pictures/phone")

    /// `start` plus `seconds`.
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    /// A schedule of the NAS every 120 s and the phone every 30 s, taken in at `start`.
    func twoFolders() -> PollSchedule {
        var schedule = PollSchedule()
        schedule.track([(nas, .seconds(120)), (phone, .seconds(30))], now: start)
        return schedule
    }

    @Test func eachFolderIsFirstDueOneOfItsOwnIntervalsAfterItIsTakenIn() {
        let schedule = twoFolders()
        #expect(schedule.next(now: start, longest: .seconds(30)) == .sleep(until: at(30)))
        #expect(schedule.next(now: at(29.9), longest: .seconds(30)) == .sleep(until: at(30)))
        #expect(schedule.next(now: at(30), longest: .seconds(30)) == .poll([phone]))
        #expect(schedule.next(now: at(125), longest: .seconds(30)) == .poll([phone, nas]), "longest overdue first")
    }

    @Test func aSleepIsNeverLongerThanTheLongestSoANewFolderIsTakenInSoon() {
        #expect(PollSchedule().next(now: start, longest: .seconds(5)) == .sleep(until: at(5)))
        var schedule = PollSchedule()
        schedule.track([(nas, .seconds(86_400))], now: start)
        #expect(schedule.next(now: start, longest: .seconds(30)) == .sleep(until: at(30)))
    }

    @Test func aPassWithinAQuarterOfItsIntervalKeepsThePace() {
        var schedule = twoFolders()
        #expect(schedule.finished(phone, spent: .milliseconds(7500), waited: false, now: at(37.5)) == nil)
        #expect(schedule.slots[phone]?.due == at(67.5), "one interval after the pass ended")
    }

    @Test func aPassOverAQuarterOfItsIntervalPutsBackThatFolderAloneByFourTimesThePass() {
        var schedule = twoFolders()
        #expect(schedule.finished(phone, spent: .seconds(10), waited: false, now: at(40)) == .seconds(40))
        #expect(schedule.slots[phone]?.due == at(80))
        #expect(schedule.slots[nas]?.due == at(120), "the NAS keeps its own pace")
        // The same 10 s is within the NAS's budget (a quarter of 120 s).
        #expect(schedule.finished(nas, spent: .seconds(10), waited: false, now: at(130)) == nil)
        #expect(schedule.slots[nas]?.due == at(250))
    }

    @Test func aPassHeldByAMountThatStoppedAnsweringKeepsThePace() {
        var schedule = twoFolders()
        #expect(schedule.finished(phone, spent: .seconds(60), waited: true, now: at(90)) == nil)
        #expect(schedule.slots[phone]?.due == at(120))
    }

    @Test func aSkippedFolderIsDueOneIntervalLater() {
        var schedule = twoFolders()
        schedule.skipped(phone, now: at(31))
        #expect(schedule.slots[phone]?.due == at(61))
        schedule.skipped(PathBytes("/unknown"), now: at(31))
        #expect(schedule.slots.count == 2)
    }

    @Test func aFolderNoLongerSurveyedIsDroppedAndAShorterIntervalTakesEffectAtOnce() {
        var schedule = twoFolders()
        schedule.track([(nas, .seconds(10))], now: at(5))
        #expect(schedule.slots.keys.sorted { $0.description < $1.description } == [nas])
        #expect(schedule.slots[nas] == PollSchedule.Slot(interval: .seconds(10), due: at(15)))
        schedule.track([(nas, .seconds(60))], now: at(6))
        #expect(schedule.slots[nas]?.due == at(15), "a longer interval starts after the pass already due")
    }
}
