import PhotoAPI
import Testing
@testable import PhotoDaemon

/// The words `systemctl status photod` shows.
@Suite struct SystemdStatusLineTests {
    @Test func indexingThenWatching() {
        #expect(SystemdService.statusLine(state: .scanning, progress: ScanProgress(found: 10_000, indexed: 3_412, total: 10_000),
                                          assets: 0, groups: 0, problems: []) == "Indexing 3,412 of 10,000 photos")
        #expect(SystemdService.statusLine(state: .scanning, progress: ScanProgress(found: 1_500, indexed: 0, total: nil),
                                          assets: 0, groups: 0, problems: []) == "Looking for photos: 1,500 found")
        #expect(SystemdService.statusLine(state: .ready, progress: nil, assets: 10_000, groups: 52, problems: [])
                == "Watching 10,000 photos in 52 groups")
        #expect(SystemdService.statusLine(state: .ready, progress: nil, assets: 1, groups: 1, problems: [])
                == "Watching 1 photo in 1 group")
        #expect(SystemdService.statusLine(state: .degraded, progress: nil, assets: 5, groups: 2, problems: ["root /x is missing"])
                == "Watching 5 photos in 2 groups; degraded: root /x is missing")
    }

    @Test func numbersAreGroupedByThousands() {
        #expect([0, 999, 1000, 123_456, 1_234_567].map(SystemdService.grouped) == ["0", "999", "1,000", "123,456", "1,234,567"])
    }
}
