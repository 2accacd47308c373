import PhotoAPI
import Testing

@testable import PhotoCommands

/// The whole picker on a scripted terminal and a made-up library: detection, thumbnails in a
/// kitty terminal, text elsewhere, the ids chosen, cancel, and the terminal put back each time.
@Suite struct PickerSessionTests {
    /// Runs the picker in a task of its own; the test types into `terminal` meanwhile.
    static func start(_ terminal: ScriptedTerminal, _ library: FakeLibrary = FakeLibrary([("Beach", 45), ("Hike", 3)]),
                      pick: PickRequest = fakePick()) -> Task<[String]?, Error> {
        Task {
            try await InteractivePicker.run(pick, terminal: terminal, source: library,
                                            detectionTimeout: .milliseconds(200))
        }
    }

    @Test func kittyTerminalGetsThumbnails() async throws {
        let terminal = ScriptedTerminal(columns: 120, rows: 24, reply: ScriptedTerminal.kittyReply)
        let picker = Self.start(terminal)
        #expect(await terminal.waitFor("> Beach  (45 photos)"))
        terminal.type("\r")
        #expect(await terminal.waitFor("\u{1B}_Ga=T,f=100"), "the current photo's thumbnail is sent")
        terminal.clear()
        terminal.type("\u{1B}[B")
        #expect(await terminal.waitFor("\u{1B}_Ga=T,f=100,t=d,i=2"))
        terminal.clear()
        terminal.type("\u{1B}[A")
        #expect(await terminal.waitFor("\u{1B}_Ga=p,i=1,"), "a thumbnail sent once is placed again by id")
        terminal.type(" c")
        #expect(try await picker.value == ["Beach-0"])
        #expect(terminal.ended)
        #expect(terminal.written.contains(KittyGraphics.deleteAll))
    }

    @Test func silentTerminalGetsTextOnly() async throws {
        let terminal = ScriptedTerminal(columns: 100, rows: 20, reply: nil)
        let picker = Self.start(terminal)
        #expect(await terminal.waitFor("> Beach  (45 photos)"))
        terminal.type("\r")
        #expect(await terminal.waitFor("IMG_0.jpg   2024-06-01 10:00:00  Beach  2.4 MB"))
        // Each key once the screen shows what it acts on: a key typed ahead of a page that is
        // still coming lands where it was aimed, but this test checks the marks, not that race.
        terminal.clear()
        terminal.type("\u{1B}[6~")
        #expect(await terminal.waitFor("IMG_15.jpg"))
        terminal.type(" \u{1B}[B ")
        #expect(await terminal.waitFor("2 of 3 marked"))
        terminal.clear()
        terminal.type("\u{1B}[5~")
        #expect(await terminal.waitFor("IMG_1.jpg"))
        terminal.type(" ")
        #expect(await terminal.waitFor("3 of 3 marked"))
        terminal.type("\t\r")
        #expect(try await picker.value == ["Beach-15", "Beach-16", "Beach-1"])
        let graphics = terminal.written.replacing(ProtocolDetector.query, with: "")
        #expect(!graphics.contains("\u{1B}_G"), "no graphics where the terminal did not answer")
        #expect(terminal.ended)
    }

    /// A sixel terminal gets no kitty graphics; the fake thumbnails do not decode, so nothing is drawn.
    @Test func sixelTerminalGetsNoKittyGraphics() async throws {
        let terminal = ScriptedTerminal(reply: ScriptedTerminal.sixelReply)
        let picker = Self.start(terminal, pick: fakePick(groups: ["Hike"]))
        #expect(await terminal.waitFor("IMG_2.jpg"), "a pick naming one group opens on it")
        terminal.type("q")
        #expect(try await picker.value == nil)
        #expect(!terminal.written.replacing(ProtocolDetector.query, with: "").contains("\u{1B}_G"))
        #expect(terminal.ended)
    }

    @Test func searchFromThePrompt() async throws {
        let terminal = ScriptedTerminal(reply: ScriptedTerminal.plainReply)
        let picker = Self.start(terminal)
        #expect(await terminal.waitFor("Groups (2)"))
        terminal.type("/sun\r")
        #expect(await terminal.waitFor("Photos matching \"sun\": 1–3 of 3"))
        terminal.type("\u{04}")
        #expect(try await picker.value == nil)
    }

    @Test func endOfTheTerminalCancels() async throws {
        let terminal = ScriptedTerminal(reply: nil)
        let picker = Self.start(terminal)
        #expect(await terminal.waitFor("Groups (2)"))
        terminal.type("\u{03}")
        #expect(try await picker.value == nil)
        #expect(terminal.ended)
    }
}
