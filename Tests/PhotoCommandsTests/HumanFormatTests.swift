import PhotoAPI
import Testing

@testable import PhotoCommands

/// Values as people read them, tab-separated rows for scripts, and the choices photoctl makes
/// from its environment (width, colours, pager).
@Suite struct HumanFormatTests {
    @Test(arguments: [
        (0, "0 B"), (512, "512 B"), (999, "999 B"), (1000, "1.0 kB"), (1049, "1.0 kB"), (1050, "1.1 kB"),
        (4_200_000, "4.2 MB"), (4_249_999, "4.2 MB"), (999_949, "999.9 kB"), (999_950, "1.0 MB"),
        (123_456_789_012, "123.5 GB"), (Int.max, "9.2 EB"),
    ])
    func sizesAreSIUnitsWithOneDecimal(bytes: Int, shown: String) {
        #expect(HumanFormat.size(bytes) == shown)
    }

    @Test func orientationsAreExifToolsWords() {
        #expect((1...8).map(HumanFormat.orientation) == [
            "Horizontal (normal)", "Mirror horizontal", "Rotate 180", "Mirror vertical",
            "Mirror horizontal and rotate 270 CW", "Rotate 90 CW", "Mirror horizontal and rotate 90 CW", "Rotate 270 CW",
        ])
        #expect(HumanFormat.orientation(0) == "Unknown (0)")
        #expect(HumanFormat.orientation(9) == "Unknown (9)")
    }

    @Test func takenTimesKeepTheOffsetTheFileRecorded() {
        #expect(HumanFormat.taken("2021-06-05T14:03:22+02:00") == "2021-06-05 14:03:22 +02:00")
        #expect(HumanFormat.taken("2021-06-05T14:03:22") == "2021-06-05 14:03:22")
        #expect(HumanFormat.hasOffset("2021-06-05T14:03:22-05:30"))
        #expect(!HumanFormat.hasOffset("2021-06-05T14:03:22"))
        #expect(HumanFormat.taken("garbage") == "garbage")
        #expect(HumanFormat.source(.iptc) == "IPTC Caption-Abstract")
        #expect(HumanFormat.dimensions(width: 4000, height: 3000) == "4000 × 3000")
    }

    static let asset = Asset(
        id: "a1", path: "/p/tab\there.jpg", group: "Beach", description: "line one\nline\ttwo \\ \u{1B}[2J",
        descriptionSource: .sidecar, format: "jpeg", taken: "2021-06-05T14:03:22+02:00", width: 4000, height: 3000,
        orientation: 6, make: "Canon", model: nil, size: 4_200_000, modified: "2024-01-02T10:11:12Z",
        sidecar: "/p/bad\u{FFFD}.xmp", sidecarBytes: "L3AvYmFk/y54bXA=")

    @Test func tsvRowsAreOneLineEachWithEscapedValues() {
        let fields = try? AssetField.parse("id,path,description,source,taken,size,model,orientation,sidecar")
        let text = AssetRows.tsv(fields ?? [], [Self.asset], header: true)
        #expect(text == "id\tpath\tdescription\tsource\ttaken\tsize\tmodel\torientation\tsidecar\n"
                + "a1\t/p/tab\\there.jpg\tline one\\nline\\ttwo \\\\ \\u{1B}[2J\tsidecar\t2021-06-05T14:03:22+02:00\t"
                + "4200000\t\t6\t/p/bad\\x{FF}.xmp\n")
        #expect(AssetRows.tsv([.id], [Self.asset], header: false) == "a1\n")
    }

    @Test func unknownFieldsAreNamedWithTheValidOnes() throws {
        #expect(try AssetField.parse("ID, group ,taken") == [.id, .group, .taken])
        #expect(throws: AssetFieldError.self) { try AssetField.parse("id,colour,,path") }
        let error = AssetFieldError(unknown: ["colour", ""])
        #expect(error.description == "unknown fields \"colour\", \"\"; valid fields: id, path, group, description, "
                + "source, format, taken, width, height, size, modified, make, model, orientation, sidecar")
    }

    @Test func tableCellsAreForPeople() {
        let cells = AssetField.allCases.map { $0.cell(of: Self.asset) }
        #expect(cells[AssetField.allCases.firstIndex(of: .size) ?? 0] == .text("4.2 MB"))
        #expect(cells[AssetField.allCases.firstIndex(of: .model) ?? 0] == .missing)
        #expect(cells[AssetField.allCases.firstIndex(of: .source) ?? 0] == .text("XMP sidecar"))
        #expect(cells[AssetField.allCases.firstIndex(of: .orientation) ?? 0] == .text("Rotate 90 CW"))
        #expect(cells[AssetField.allCases.firstIndex(of: .sidecar) ?? 0] == .bytes(Array("/p/bad".utf8) + [0xFF] + Array(".xmp".utf8)))
        #expect(AssetField.size.column.alignRight && !AssetField.size.column.flexible)
        #expect(AssetField.path.column.flexible && !AssetField.id.column.flexible)
    }

    @Test func showNamesWhereTheDescriptionCameFrom() {
        let fields = AssetDetails.fields(of: Self.asset)
        let labels = fields.map(\.0)
        #expect(labels == ["ID", "Path", "Group", "Description", "Source", "Sidecar", "Format", "Taken", "Dimensions",
                           "Orientation", "Make", "Size", "Modified"])
        #expect(fields[labels.firstIndex(of: "Taken") ?? 0].1 == .text("2021-06-05 14:03:22 +02:00"))
        var noZone = Self.asset
        noZone.taken = "2021-06-05T14:03:22"
        noZone.descriptionSource = .exif
        noZone.sidecar = nil
        noZone.sidecarBytes = nil
        let plain = AssetDetails.fields(of: noZone)
        #expect(plain.first { $0.0 == "Taken" }?.1 == .text("2021-06-05 14:03:22 (no time zone recorded)"))
        #expect(!plain.contains { $0.0 == "Sidecar" })
    }

    @Test func widthComesFromCOLUMNSThenTheTerminalAndColoursOnlyFromATerminal() {
        let tty = TerminalFacts(outputIsTerminal: true, errorIsTerminal: true, columns: 132, errorColumns: 100)
        let pipe = TerminalFacts(outputIsTerminal: false, errorIsTerminal: false, columns: nil)
        let term = ["TERM": "xterm-256color"]
        func decide(_ environment: [String: String], _ terminal: TerminalFacts, full: Bool = false) -> OutputStyle {
            OutputStyle.decide(full: full, legend: true, environment: environment, terminal: terminal)
        }
        #expect(decide(term, tty) == OutputStyle(width: 132, colours: true, legend: true, errorWidth: 100))
        // Padded into columns on a terminal, or within COLUMNS; a plain pipe gets no padding.
        #expect(decide(term, tty, full: true).aligned)
        #expect(decide(term.merging(["COLUMNS": "80"]) { $1 }, pipe).aligned)
        #expect(!decide(term, pipe).aligned)
        #expect(decide(term.merging(["COLUMNS": "80"]) { $1 }, tty).width == 80)
        #expect(decide(term.merging(["COLUMNS": "80"]) { $1 }, pipe) == OutputStyle(width: 80, colours: false, legend: true))
        #expect(decide(term.merging(["COLUMNS": "wide"]) { $1 }, tty).width == 132)
        #expect(decide(term.merging(["COLUMNS": "0"]) { $1 }, pipe).width == nil)
        #expect(decide(term, pipe) == .plain)
        #expect(decide(term, TerminalFacts(outputIsTerminal: true, errorIsTerminal: true, columns: nil)).width == 80)
        #expect(decide(term.merging(["COLUMNS": "80"]) { $1 }, tty, full: true).width == nil)
        #expect(!decide(term.merging(["NO_COLOR": "1"]) { $1 }, tty).colours)
        #expect(decide(term.merging(["NO_COLOR": ""]) { $1 }, tty).colours)
        #expect(!decide(["TERM": "dumb"], tty).colours)
        #expect(!decide([:], tty).colours)
    }

    @Test func thePagerIsPAGERElseLessAndNoneForCatOrEmptyOrADumbTerminal() {
        let term = ["TERM": "xterm"]
        let less: (String) -> String? = { $0 == "less" ? "/usr/bin/less" : nil }
        let chosen = Pager.command(environment: term, elevated: false, find: less)
        #expect(chosen == Pager.Command(program: "/usr/bin/less", arguments: [],
                                        environment: ["LESS": "FRSXMK", "LESSCHARSET": "utf-8"]))
        let lessOrMost: (String) -> String? = { ["less", "most"].contains($0) ? "/usr/bin/" + $0 : nil }
        let custom = Pager.command(environment: term.merging(["PAGER": "most -s"]) { $1 }, elevated: false,
                                   find: lessOrMost)
        #expect(custom?.program == "/bin/sh" && custom?.arguments == ["-c", "most -s"])
        #expect(Pager.command(environment: term.merging(["PAGER": "/bin/sh -c more"]) { $1 }, elevated: false,
                              find: less)?.arguments == ["-c", "/bin/sh -c more"])
        // Not installed: less rather than a pager that would swallow the output.
        #expect(Pager.command(environment: term.merging(["PAGER": "most -s"]) { $1 }, elevated: false, find: less)
                == chosen)
        #expect(Pager.command(environment: term.merging(["PAGER": "/no/such/pager"]) { $1 }, elevated: false,
                              find: less) == chosen)
        #expect(Pager.command(environment: term.merging(["PAGER": "cat"]) { $1 }, elevated: false, find: less) == nil)
        #expect(Pager.command(environment: term.merging(["PAGER": ""]) { $1 }, elevated: false, find: less) == nil)
        #expect(Pager.command(environment: ["TERM": "dumb"], elevated: false, find: less) == nil)
        #expect(Pager.command(environment: term, elevated: false, find: { _ in nil }) == nil)
        // Under sudo, $PAGER could be any program run as root: only less, in its secure mode.
        let root = Pager.command(environment: term.merging(["PAGER": "vim -"]) { $1 }, elevated: true, find: less)
        #expect(root?.program == "/usr/bin/less" && root?.environment["LESSSECURE"] == "1")
    }
}
