import PhotoAPI
import Testing

@testable import PhotoCommands

/// photoctl's tables for people: a cell from a photo, a file name or an app stays one cell on
/// one row, whatever bytes it holds, and columns line up by what the terminal shows.
@Suite struct OutputTableTests {
    @Test func controlCharactersInACellAreShownEscapedAndStayOnTheirRow() {
        let text = Output.tableText(["ID", "PATH"], [
            ["a1", "beach\n4k2x9q0c1m7zt5ha  Other  forged.jpg"],
            ["a2", "\u{1B}]0;owned\u{07}\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J.jpg"],
            ["a3", "\u{202E}gpj.exe"],
        ])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5, "\(lines)")  // header, three rows, and the final newline
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(lines[1] == "a1  beach\\u{0A}4k2x9q0c1m7zt5ha  Other  forged.jpg")
        #expect(lines[2].hasPrefix("a2  \\u{1B}]0;owned\\u{07}"))
        #expect(lines[3] == "a3  \\u{202E}gpj.exe")
    }

    @Test func aPathThatIsNotUTF8IsShownByteForByte() {
        // photod sends such a path with U+FFFD in `path` and its exact bytes in `pathBytes`.
        let asset = Asset(id: "a1", path: "/p/bad\u{FFFD}\u{FFFD}name\u{1B}[31m.jpg", pathBytes: "L3AvYmFk//5uYW1lG1szMW0uanBn",
                          group: "Other", format: "jpeg", size: 1, modified: "2026-01-01T00:00:00Z")
        let text = Output.tableText(["ID", "PATH"], [[.text(asset.id), .path(of: asset)]])
        #expect(text.hasSuffix("a1  /p/bad\\x{FF}\\x{FE}name\\u{1B}[31m.jpg\n"), "\(text)")
        let plain = Asset(id: "a2", path: "/p/ok.jpg", group: "Other", format: "jpeg", size: 1, modified: "-")
        #expect(Output.Cell.path(of: plain).shown == "/p/ok.jpg")
    }

    @Test func columnsAreAsWideAsWhatTheTerminalShows() {
        let text = Output.tableText(["GROUP", "PHOTOS", "LATEST"], [
            ["写真", "1", "-"],          // two wide characters: four columns
            ["e\u{301}te\u{301}", "2", "-"],  // combining accents take none
            ["tab\there", "3", "-"],      // escaped: the \u{09} is shown, six columns more than "tab"
        ], style: OutputStyle(width: nil, colours: false, legend: true))  // a terminal, with --full
        let rows = text.split(separator: "\n").map(String.init)
        // The second column starts at the same terminal column on every row.
        let starts = zip(rows, ["PHOTOS", "1", "2", "3"]).map { row, value in
            TerminalWidth.of(String(row[..<(row.range(of: "  " + value + "  ")?.upperBound ?? row.endIndex)]))
                - value.count - 2
        }
        #expect(Set(starts).count == 1, "\(rows)")
        #expect(rows[3].hasPrefix("tab\\u{09}here  "))
        #expect(TerminalWidth.of("写真") == 4)
        #expect(TerminalWidth.of("e\u{301}") == 1)
    }
}
