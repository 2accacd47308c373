import PhotoAPI
import Testing

@testable import PhotoCommands

/// The "still indexing" line of groups, list and find (issue 30), and the counts it groups.
@Suite struct IndexingNoteTests {
    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (11_776, "11,776"), (1_234_567, "1,234,567"),
                      (-1000, "-1,000"), (Int.min, "-9,223,372,036,854,775,808")])
    func countsGroupTheirThousands(value: Int, shown: String) {
        #expect(Thousands.grouped(value) == shown)
    }

    @Test func theLineSaysFilesReadOfTheTotalOnceItIsKnownElseFilesFound() {
        #expect(IndexingNote.text(ScanProgress(found: 12_000, indexed: 11_776, total: 20_000))
            == "still indexing: 11,776 of 20,000 files read")
        #expect(IndexingNote.text(ScanProgress(found: 11_776, indexed: 0, total: nil))
            == "still indexing: 11,776 files found so far")
    }
}
