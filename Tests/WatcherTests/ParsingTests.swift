import Testing
@testable import Watcher

@Suite("Parsing")
struct ParsingTests {
    /// One `struct inotify_event` in native (little-endian) order, name NUL-padded to `padded`.
    private func record(wd: Int32, mask: UInt32, cookie: UInt32, name: String, padded: Int) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = word(UInt32(bitPattern: wd)) + word(mask) + word(cookie) + word(UInt32(padded))
        bytes += Array(name.utf8) + [UInt8](repeating: 0, count: padded - name.utf8.count)
        return bytes
    }

    @Test func parsesRecordsWithPaddedNames() {
        let bytes = record(wd: 3, mask: WatchMask.closeWrite, cookie: 0, name: "photo.jpg", padded: 16)
            + record(wd: -1, mask: WatchMask.queueOverflow, cookie: 0, name: "", padded: 0)
            + record(wd: 7, mask: WatchMask.movedTo | WatchMask.isDirectory, cookie: 0xDEAD_BEEF, name: "a", padded: 16)
        let events = InotifyEventParser.parse(bytes)
        #expect(events == [
            WatchEvent(wd: 3, mask: WatchMask.closeWrite, cookie: 0, name: p("photo.jpg")),
            WatchEvent(wd: -1, mask: WatchMask.queueOverflow, cookie: 0, name: []),
            WatchEvent(wd: 7, mask: WatchMask.movedTo | WatchMask.isDirectory, cookie: 0xDEAD_BEEF, name: p("a")),
        ])
    }

    @Test func ignoresATruncatedRecord() {
        let whole = record(wd: 1, mask: WatchMask.create, cookie: 0, name: "a", padded: 16)
        let bytes = whole + Array(record(wd: 2, mask: WatchMask.create, cookie: 0, name: "b", padded: 16).prefix(20))
        #expect(InotifyEventParser.parse(bytes).map(\.wd) == [1])
    }

    @Test func maskHasWhatTheLibraryNeedsAndNothingItMustNotSee() {
        let mask = WatchMask.directory
        for bit in [WatchMask.closeWrite, WatchMask.movedFrom, WatchMask.movedTo, WatchMask.create,
                    WatchMask.delete, WatchMask.deleteSelf, WatchMask.moveSelf] {
            #expect(mask & bit == bit)
        }
        // IN_ACCESS 0x1, IN_MODIFY 0x2, IN_CLOSE_NOWRITE 0x10, IN_OPEN 0x20.
        #expect(mask & 0x33 == 0)
    }
}
