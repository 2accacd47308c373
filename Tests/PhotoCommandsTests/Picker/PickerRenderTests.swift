import PhotoAPI
import Testing

@testable import PhotoCommands

/// The picker's screens: who asks and why, escaped; every line within the width; names cut
/// keeping the file name; text rows or a thumbnail's place by protocol.
@Suite struct PickerRenderTests {
    /// Whether `line` holds a scalar that would act on a terminal.
    static func hasControl(_ line: String) -> Bool {
        line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }
    }

    @Test func headerNamesTheAppItsReasonAndTheCount() {
        let renderer = PickerRenderer(pick: fakePick(limit: 5, label: "a cover photo"), picture: .text)
        var state = PickerStateTests.beachOpen(limit: 5)
        _ = state.handle(.space)
        let lines = renderer.frame(state, columns: 120, rows: 20).lines
        #expect(lines[0].hasPrefix("app:org.example.Blogger"))
        #expect(lines[0].contains("calls itself \"Blogger\""))
        #expect(lines[0].contains("wants you to choose up to 5 photos (\"a cover photo\")"))
        #expect(lines[1] == "Reason: Post to the blog")
        #expect(lines[2] == "Beach: 1–10 of 45 — 1 of 5 marked")
        #expect(lines.count == 15, "three lines above ten rows, two below")
        #expect(lines[3].hasPrefix(">[x]  /home/ann/Pictures/Beach/IMG_0.jpg  2024-06-01 10:00:00  Beach"))
        #expect(lines[3].hasSuffix("2.4 MB"))
        #expect(lines[4].hasPrefix(" [ ]"))
    }

    @Test func hostileTextIsEscapedAndFitsTheWidth() {
        let pick = fakePick(reason: "Free\u{1B}]52;c;AAAA\u{07} prizes\nReason: fake", label: "x\u{202E}y",
                            appLabel: "Photos\u{1B}[2J")
        let renderer = PickerRenderer(pick: pick, picture: .text)
        var state = PickerState(limit: 3, pageSize: 10)
        let evil = Group(name: "Evil\u{1B}[31m\nname", count: 1)
        _ = state.loaded(groups: [evil])
        _ = state.handle(.enter)
        var asset = FakeLibrary.asset("x", 1)
        asset.path = "/home/ann/\u{1B}]0;title\u{07}/" + String(repeating: "long folder/", count: 20) + "IMG\n_1.jpg"
        asset.group = evil.name
        _ = state.loaded(page: [asset], next: nil, for: .group(name: evil.name, fallback: false))
        for columns in [40, 80, 200] {
            let lines = renderer.frame(state, columns: columns, rows: 16).lines
            for line in lines {
                #expect(!Self.hasControl(line), "\(line)")
                #expect(TerminalWidth.of(line) <= columns, "\(line)")
            }
            #expect(lines[1].hasPrefix("Reason: Free\\u{1B}]52;c;AAAA\\u{07}"))
        }
        // The file name survives the cut, with the whole folders nearest it; the ones further up give way.
        let row = renderer.frame(state, columns: 100, rows: 16).lines[3]
        #expect(row.contains(" …/long folder/IMG\\u{0A}_1.jpg"))
    }

    @Test func picturesGetAPlaceOnlyWhereShown() {
        let state = PickerStateTests.beachOpen()
        let kitty = PickerRenderer(pick: fakePick(), picture: .kitty).frame(state, columns: 120, rows: 20)
        #expect(kitty.picture == PicturePlacement(assetID: "Beach-0", row: 4, column: 89, columns: 32, rows: 10))
        #expect(kitty.lines.allSatisfy { TerminalWidth.of($0) <= 120 })
        #expect(kitty.lines[3...].prefix(10).allSatisfy { TerminalWidth.of($0) <= 87 }, "rows leave the picture its room")
        #expect(PickerRenderer(pick: fakePick(), picture: .kitty).frame(state, columns: 50, rows: 20).picture == nil)
        #expect(PickerRenderer(pick: fakePick(), picture: .sixel).frame(state, columns: 120, rows: 20).picture == kitty.picture)
        #expect(PickerRenderer(pick: fakePick(), picture: .text).frame(state, columns: 120, rows: 20).picture == nil)
    }

    @Test func thumbnailsKeepTheirProportionsAndOnlyPNGIsSent() {
        let box = PicturePlacement(assetID: "a", row: 4, column: 80, columns: 32, rows: 15)
        #expect(PictureShelf.cells(width: 256, height: 256, within: box) == (30, 15))
        #expect(PictureShelf.cells(width: 256, height: 128, within: box) == (32, 8))
        #expect(PictureShelf.cells(width: 96, height: 256, within: box) == (11, 15))
        var shelf = PictureShelf()
        #expect(shelf.draw(box) == ("", true))
        #expect(shelf.draw(box) == ("", false), "asked once")
        shelf.arrived("a", RequestImageReply(format: .jpeg, width: 1, height: 1, source: .embedded, orientation: 6,
                                             data: "/9j/"), skipped: false)
        #expect(shelf.draw(box) == ("", false), "a JPEG is never sent as a PNG")
        let evil = PicturePlacement(assetID: "b", row: 4, column: 80, columns: 32, rows: 15)
        _ = shelf.draw(evil)
        shelf.arrived("b", RequestImageReply(format: .png, width: 1, height: 1, source: .cache, orientation: 1,
                                             data: "AAAA\u{1B}\\\u{1B}]0;x\u{07}"), skipped: false)
        #expect(shelf.draw(evil) == ("", false), "data that could end the escape is never written")
    }

    @Test func groupsAndSummaryScreens() {
        var state = PickerState(limit: 2, pageSize: 10)
        _ = state.loaded(groups: PickerStateTests.groups)
        let renderer = PickerRenderer(pick: fakePick(limit: 2), picture: .text)
        let groups = renderer.frame(state, columns: 80, rows: 15).lines
        #expect(groups[2] == "Groups (3) — 0 of 2 marked")
        #expect(groups[3] == "> Beach  (45 photos)")
        #expect(groups[5] == "  Other (no description)  (2 photos)")
        var marked = PickerStateTests.beachOpen(limit: 2)
        _ = marked.handle(.down)
        _ = marked.handle(.space)
        _ = marked.handle(.up)
        _ = marked.handle(.space)
        _ = marked.handle(.tab)
        let summary = renderer.frame(marked, columns: 80, rows: 15).lines
        #expect(summary[2] == "Marked photos, in the order chosen — 2 of 2 marked")
        #expect(summary[3].hasPrefix(">1.  /home/ann/Pictures/Beach/IMG_1.jpg"))
        #expect(summary[4].hasPrefix(" 2.  /home/ann/Pictures/Beach/IMG_0.jpg"))
    }
}
