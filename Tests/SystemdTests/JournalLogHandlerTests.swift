import Foundation
import Logging
import Systemd
import Testing

@Suite struct JournalLogHandlerTests {
    @Test func theJournalIsChosenOnlyWhenJournalStreamNamesStandardError() throws {
        var info = stat()
        #expect(fstat(STDERR_FILENO, &info) == 0)
        let mine = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": mine]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino + 1)"]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "garbage"]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: [:]))
    }

    @Test func metadataKeysBecomeJournalFieldNames() {
        #expect(JournalLogHandler.fieldName("path") == "PATH")
        #expect(JournalLogHandler.fieldName("varlink.peer") == "VARLINK_PEER")
        #expect(JournalLogHandler.fieldName("request_timeout") == "REQUEST_TIMEOUT")
    }

    @Test func levelsMapToSyslogPriorities() {
        let priorities = Logger.Level.allCases.map(JournalLogHandler.priority)
        #expect(priorities == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func withoutANotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isActive)
        #expect(!notifier.send(["READY=1"]))
        #expect(notifier.watchdogInterval() == nil || ProcessInfo.processInfo.environment["WATCHDOG_USEC"] != nil)
    }
}
