import Foundation
import PhotoTestSupport
import Testing

/// photoctl on a pseudo-terminal (util-linux `script`), as a person sees it: colours only on a
/// terminal and never with NO_COLOR; long output through the pager, never when piped, with
/// --no-pager or --json; quitting the pager early ends photoctl quietly.
@Suite(.serialized) struct TerminalOutputTests {
    /// Runs `arguments` through a shell on a new pseudo-terminal; its output is what the
    /// terminal received (standard output and error, lines ending in CR LF), and a last line
    /// "status=N" with photoctl's exit status.
    static func onTerminal(_ daemon: DaemonHarness, _ arguments: [String], _ extra: [String: String] = [:],
                           before: [String] = []) async throws -> ProcessResult {
        let command = (before + [Binaries.photoctl] + arguments).map(quoted).joined(separator: " ") + "; echo status=$?"
        let environment = daemon.environment.merging(["TERM": "xterm", "NO_COLOR": "", "PAGER": "cat"]) { $1 }
            .merging(extra) { $1 }
        return try await ProcessRunner.run("/usr/bin/script", ["-qfec", command, "/dev/null"], environment: environment)
    }

    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A pager that records what it was given, and says so on the terminal.
    static func recordingPager(in daemon: DaemonHarness) throws -> (pager: String, record: String) {
        let record = daemon.dir.file("paged.txt")
        let script = try daemon.dir.write("pager.sh", Array("""
            #!/bin/sh
            { echo "LESS=$LESS"; cat; } > '\(record)'
            echo "PAGER SAW $(wc -l < '\(record)') LINES"

            """.utf8))
        chmod(script, 0o755)
        return (script, record)
    }

    static func library() async throws -> (DaemonHarness, String) {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", Photo.jpeg("Beach"))
        try daemon.add("caption.jpg", Photo.jpeg(LongCaption.xml))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["caption.jpg"])
        return (daemon, id)
    }

    @Test func coloursOnlyOnATerminalAndNeverWithNO_COLOR() async throws {
        let (daemon, _) = try await Self.library()
        let tty = try await Self.onTerminal(daemon, ["groups"])
        #expect(tty.stdout.hasPrefix("\u{1B}[1mGROUP\u{1B}[0m "), "\(tty.stdout.debugDescription)")
        #expect(tty.stdout.contains(" \u{1B}[1mPHOTOS\u{1B}[0m  \u{1B}[1mLATEST\u{1B}[0m\r\n"))
        #expect(tty.stdout.hasSuffix("status=0\r\n"))
        // The terminal's own width (script's says none: 80, as systemd assumes).
        for line in tty.stdout.split(separator: "\r\n") {
            let plain = line.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
            #expect(plain.count <= 80, "\(line)")
        }
        let noColour = try await Self.onTerminal(daemon, ["groups"], ["NO_COLOR": "1"])
        #expect(noColour.stdout.hasPrefix("GROUP"), "\(noColour.stdout.debugDescription)")
        #expect(!noColour.stdout.contains("\u{1B}"))
        let dumb = try await Self.onTerminal(daemon, ["list", "--fields", "id,model"], ["TERM": "dumb"])
        #expect(!dumb.stdout.contains("\u{1B}"))
        let piped = try await daemon.photoctl(["list", "--fields", "id,model"])
        #expect(!piped.stdout.contains("\u{1B}"))
        #expect(piped.stdout.contains("  EOS 5D\n"))
    }

    @Test func longOutputGoesThroughThePagerOnlyOnATerminal() async throws {
        let (daemon, _) = try await Self.library()
        let (pager, record) = try Self.recordingPager(in: daemon)
        let paged = try await Self.onTerminal(daemon, ["list", "--sort", "path"], ["PAGER": pager])
        #expect(paged.stdout == "PAGER SAW 4 LINES\r\nstatus=0\r\n", "\(paged.stdout.debugDescription)")
        let seen = try String(contentsOfFile: record, encoding: .utf8)
        #expect(seen.hasPrefix("LESS=FRSXMK\n\u{1B}[1mID\u{1B}[0m"), "\(seen.debugDescription)")
        // Fitted to the terminal's 80 columns, though the pager reads a pipe.
        #expect(seen.contains("  Beach  "))
        #expect(seen.contains("  …/") && seen.contains("/library/beach.jpg\n"), "\(seen)")

        for (arguments, extra) in [(["--no-pager", "list"], [:]), (["list", "--json"], [:]),
                                   (["list", "--format", "tsv"], [:]), (["list"], ["PAGER": "cat"]),
                                   (["list"], ["PAGER": ""])] as [([String], [String: String])] {
            try? FileManager.default.removeItem(atPath: record)
            let direct = try await Self.onTerminal(daemon, arguments, ["PAGER": pager].merging(extra) { $1 })
            #expect(!FileManager.default.fileExists(atPath: record), "\(arguments) \(extra) went through the pager")
            #expect(direct.stdout.hasSuffix("status=0\r\n"), "\(arguments): \(direct.stdout)")
            #expect(!direct.stdout.contains("PAGER SAW"))
        }
        // A stream is never paged: each change must show as it happens.
        try? FileManager.default.removeItem(atPath: record)
        let watch = try await Self.onTerminal(daemon, ["watch"], ["PAGER": pager], before: ["timeout", "-s", "INT", "2"])
        #expect(watch.stdout.contains("Watching photod from change token"), "\(watch.stdout)")
        #expect(!FileManager.default.fileExists(atPath: record))
        let piped = try await ProcessRunner.run(Binaries.photoctl, ["list"],
                                          environment: daemon.environment.merging(["PAGER": pager, "TERM": "xterm"]) { $1 })
        #expect(piped.stdout.contains("/beach.jpg\n"))
        #expect(!FileManager.default.fileExists(atPath: record))
    }

    @Test func quittingThePagerEarlyEndsPhotoctlQuietly() async throws {
        let (daemon, id) = try await Self.library()
        // Twenty copies of a 4,281-character caption, twice each, shown whole: far more than
        // a pipe holds, so photoctl is still writing when the pager goes away.
        let show = ["show", "--full"] + Array(repeating: id, count: 20)
        let quit = try await Self.onTerminal(daemon, show, ["PAGER": "head -c 100"])
        #expect(quit.stdout.hasSuffix("status=0\r\n"), "\(quit.stdout.suffix(300).debugDescription)")
        #expect(!quit.stdout.contains("photoctl:"))
        #expect(!quit.stdout.localizedCaseInsensitiveContains("pipe"))
        #expect(quit.stdout.count < 400, "only what the pager showed")
    }
}
