import PhotoAPI
import PhotoTestSupport
import SafeText
import Testing

@testable import PhotoCommands

/// Tables that fit: cells shortened by what the terminal shows, never inside a character, a
/// mark's cluster or an escape, and the widest free-text columns shrunk first.
@Suite struct OutputFitTests {
    static let caption = LongCaption.xml

    /// What a line shows once colour sequences are taken out.
    static func visible(_ line: Substring) -> String {
        String(line).replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[2m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
    }

    @Test func textLosesItsEndAndPathsTheirMiddle() {
        #expect(Ellipsis.fit("Beach at dawn", width: 8, at: .end) == "Beach a…")
        #expect(Ellipsis.fit("Beach", width: 8, at: .end) == "Beach")
        // A path keeps its file name whole, and the whole folders nearest it that fit: the
        // folders further up give way first.
        #expect(Ellipsis.fit("/home/ann/Pictures/2021/beach.jpg", width: 25, at: .path) == "…/Pictures/2021/beach.jpg")
        #expect(Ellipsis.fit("/home/ann/Pictures/2021/beach.jpg", width: 16, at: .path) == "…/2021/beach.jpg")
        #expect(Ellipsis.fit("/home/ann/Pictures/2021/beach.jpg", width: 15, at: .path) == "…/beach.jpg")
        #expect(Ellipsis.fit("/home/ann/Pictures/2021/beach.jpg", width: 10, at: .path) == "…beach.jpg")
        // What comes before the first slash (a kind) stays in front.
        #expect(Ellipsis.fit("script:/home/ann/bin/backup.sh", width: 24, at: .path) == "script:…/bin/backup.sh")
        // A name too long for the column loses its middle, keeping its extension.
        #expect(Ellipsis.fit("/p/IMG_20190704_103000_HDR.jpg", width: 12, at: .path) == "IMG_20…R.jpg")
        #expect(Ellipsis.fit("IMG_20190704_103000_HDR.jpeg", width: 9, at: .path) == "IMG….jpeg")
        // An app's id keeps its start and its program's name; other text half and half.
        #expect(Ellipsis.fit("script:/usr/bin/python3:/home/ann/bin/backup.sh", width: 24, at: .middle)
                == "script:/usr/b…/backup.sh")
        #expect(Ellipsis.fit("abcdefghij", width: 7, at: .middle) == "abc…hij")
        #expect(Ellipsis.fit("abcdef", width: 1, at: .end) == "…")
        #expect(Ellipsis.fit("abcdef", width: 0, at: .middle) == "…")
    }

    @Test func wideCharactersAndEmojiAreNeverHalved() {
        // Each takes two columns: six columns hold two of them and the mark, not two and a half.
        let cut = Ellipsis.fit("写真写真写真", width: 6, at: .end)
        #expect(cut == "写真…")
        #expect(TerminalWidth.of(cut) == 5)
        let emoji = Ellipsis.fit("🐱🐶🐭🐹", width: 6, at: .middle)
        #expect(emoji == "🐱…🐹")
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(Ellipsis.units(of: family + "x").count == 2, "a ZWJ sequence is one cluster")
    }

    @Test func combiningMarksStayWithTheirBase() {
        let text = "e\u{301}e\u{301}e\u{301}e\u{301}"  // four columns, eight scalars
        #expect(TerminalWidth.of(text) == 4)
        let cut = Ellipsis.fit(text, width: 3, at: .end)
        #expect(cut == "e\u{301}e\u{301}…")
        #expect(cut.unicodeScalars.filter { $0 == "\u{301}" }.count == 2)
        let middle = Ellipsis.fit(text, width: 3, at: .middle)
        #expect(middle == "e\u{301}…e\u{301}")
        #expect(middle.unicodeScalars.last == "\u{301}")
    }

    @Test func escapesAreKeptWholeOrLeftOutWhole() {
        let escaped = SafeText.escaped("ab\u{1B}[2Jcd\\x")
        #expect(escaped == "ab\\u{1B}[2Jcd\\\\x")
        #expect(Ellipsis.units(of: escaped).contains("\\u{1B}"))
        #expect(Ellipsis.units(of: escaped).contains("\\\\"))
        // Seven columns: "ab" and the six of \u{1B} would be eight, so the escape goes whole.
        #expect(Ellipsis.fit(escaped, width: 7, at: .end) == "ab…")
        #expect(Ellipsis.fit(escaped, width: 9, at: .end) == "ab\\u{1B}…")
        // A mark that followed the escaped character stays on the escape's closing brace.
        let marked = SafeText.escaped("\u{7}\u{301}zzzz")
        #expect(Ellipsis.units(of: marked).first == "\\u{07}\u{301}")
        let bytes = SafeText.escaped(bytes: Array("/p/a".utf8) + [0xFF, 0xFE] + Array("b.jpg".utf8))
        #expect(Ellipsis.fit(bytes, width: 16, at: .path) == "a\\x{FF}…b.jpg")
    }

    @Test func aCaptionOfThousandsOfCharactersIsCutToTheColumn() {
        let cut = Ellipsis.fit(SafeText.escaped(Self.caption), width: 40, at: .end)
        #expect(TerminalWidth.of(cut) == 40)
        #expect(cut == String(Self.caption.prefix(39)) + "…")
    }

    @Test func theWidestFlexibleColumnsGiveUpColumnsFirst() {
        // ID 16 fixed, a 4,281-column caption, a 40-column path, a 19-column date fixed.
        let widths = ColumnFit.widths(natural: [16, 4281, 40, 19], floors: [2, 5, 4, 5],
                                      flexible: [false, true, true, false], separator: 2, limit: 120)
        #expect(widths == [16, 40, 39, 19])
        #expect(widths.reduce(0, +) + 6 == 120)
        let tight = ColumnFit.widths(natural: [16, 4281, 40, 19], floors: [2, 5, 4, 5],
                                     flexible: [false, true, true, false], separator: 2, limit: 80)
        #expect(tight == [16, 20, 19, 19])
        #expect(tight.reduce(0, +) + 6 == 80)
        // Nothing to do without a limit or when it fits.
        #expect(ColumnFit.widths(natural: [3, 500], floors: [1, 1], flexible: [true, true], separator: 2, limit: nil)
                == [3, 500])
        #expect(ColumnFit.widths(natural: [3, 5], floors: [1, 1], flexible: [true, true], separator: 2, limit: 80)
                == [3, 5])
        // Too narrow for even the floors: flexible columns stop at theirs, the row stays too wide.
        let narrow = ColumnFit.widths(natural: [16, 4281], floors: [2, 11], flexible: [false, true], separator: 2, limit: 20)
        #expect(narrow == [16, 11])
    }

    @Test func aTableWithARealCaptionFitsEightyColumns() {
        let columns = [Output.Column("ID", flexible: false), Output.Column("GROUP"),
                       Output.Column("SIZE", flexible: false, alignRight: true), Output.Column("PATH")]
        let rows: [[Output.Cell]] = [
            ["4k2x9q0c1m7zt5ha", .text(Self.caption), "4.2 MB", .path("/home/ann/Pictures/scans/2019/tiff/caption.tif")],
            ["a1b2c3d4e5f6g7h8", "写真 e\u{301}te\u{301}", "512 B", .path("/home/ann/Pictures/写真.jpg")],
            ["zz", "Other", .missing, .bytes(Array("/p/bad".utf8) + [0xFF] + Array(".jpg".utf8))],
        ]
        let text = Output.tableText(columns, rows, style: OutputStyle(width: 80, colours: false, legend: true))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines { #expect(TerminalWidth.of(String(line)) <= 80, "\(line)") }
        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
        // ID 16, GROUP and PATH shrunk alike to 26, SIZE 6 on the right: 80 with the gaps.
        #expect(lines[0] == "ID" + spaces(16) + "GROUP" + spaces(25) + "SIZE  PATH")
        #expect(lines[1] == "4k2x9q0c1m7zt5ha  <?xml version=\"1.0\"?><x:x…  4.2 MB  …/2019/tiff/caption.tif")
        #expect(lines[2] == "a1b2c3d4e5f6g7h8  写真 e\u{301}te\u{301}" + spaces(20) + " 512 B  …/ann/Pictures/写真.jpg")
        #expect(lines[3] == "zz" + spaces(16) + "Other" + spaces(28) + "-  /p/bad\\x{FF}.jpg")
        let whole = Output.tableText(columns, rows, style: .plain)
        #expect(whole.contains(SafeText.escaped(Self.caption)))
    }

    @Test func withoutLegendThereIsNoHeaderAndColoursTakeNoColumns() {
        let columns = [Output.Column("ID", flexible: false), Output.Column("DESCRIPTION")]
        let rows: [[Output.Cell]] = [["a1", .text("Beach\u{1B}[31m at dawn, long enough to be cut")], ["a2", .missing]]
        let bare = Output.tableText(columns, rows, style: OutputStyle(width: 30, colours: false, legend: false))
        #expect(bare == "a1  Beach\\u{1B}[31m at dawn, …\na2  -\n")
        let coloured = Output.tableText(columns, rows, style: OutputStyle(width: 30, colours: true, legend: true))
        let lines = coloured.split(separator: "\n")
        #expect(lines[0] == "\u{1B}[1mID\u{1B}[0m  \u{1B}[1mDESCRIPTION\u{1B}[0m")
        #expect(lines[2] == "a2  \u{1B}[2m-\u{1B}[0m")
        // The same layout as without colours, and the hostile ESC still escaped.
        #expect(lines.map(Self.visible) == ["ID  DESCRIPTION"] + bare.split(separator: "\n").map(String.init))
        #expect(!coloured.contains("\u{1B}[31m"))
    }

    @Test func fieldsLineUpTheirLabelsAndFitTheirValues() {
        let text = Output.fieldsText([("ID", "a1"), ("Description", .text(Self.caption)), ("Path", .path("/p/x.jpg"))],
                                     style: OutputStyle(width: 40, colours: false, legend: true))
        #expect(text == """
                     ID: a1
            Description: <?xml version="1.0"?><x:xm…
                   Path: /p/x.jpg

            """)
    }
}
