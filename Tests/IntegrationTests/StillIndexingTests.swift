import Foundation
import PhotoTestSupport
import Testing

/// While a reconcile fills the index (issue 30), `photoctl groups`, `list` and `find` answer as
/// usual on standard output and add one line on standard error saying they are still indexing,
/// from the same reply (no extra call); with `--json` the reply's progress says it instead.
@Suite(.serialized) struct StillIndexingTests {
    /// Whether `text` is the one "still indexing" line, in either of its forms.
    private func isIndexingLine(_ text: String) -> Bool {
        text.hasPrefix("still indexing: ") && (text.hasSuffix(" files read\n") || text.hasSuffix(" files found so far\n"))
            && text.filter { $0 == "\n" }.count == 1
    }

    @Test func groupsListAndFindSayOnStandardErrorThatTheFirstIndexIsStillRunning() async throws {
        let daemon = try DaemonHarness()
        // Each chunk of files the reconcile reads (256) waits 2 s first: three chunks make a first
        // index long enough to be caught running, even on a loaded machine that is slow to listen.
        daemon.daemonEnvironment = ["PHOTOD_TEST_READ_DELAY_MS": "2000"]
        let photo = Photo.jpeg("Beach")
        for n in 0..<520 { try daemon.add("beach-\(n).jpg", photo) }
        async let started: Void = daemon.start()

        let commands = [["groups"], ["list"], ["find", "beach"], ["--json", "groups"], ["--json", "list"]]
        var caught: [String: ProcessResult] = [:]
        let deadline = ContinuousClock.now + .seconds(30)
        while caught.count < commands.count, ContinuousClock.now < deadline {
            for command in commands where caught[command.joined(separator: " ")] == nil {
                let result = try await daemon.photoctl(command)
                // Not yet listening; find with nothing indexed yet exits 1 (no match, as grep)
                // and still says it is indexing, which is what this looks for.
                let answered = result.status == 0 || (command.first == "find" && result.status == 1)
                guard answered else { continue }
                if result.stderr.contains("still indexing") || result.stdout.contains("\"progress\"") {
                    caught[command.joined(separator: " ")] = result
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await started

        for command in ["groups", "list", "find beach"] {
            let result = try #require(caught[command], "\(command) never said it was still indexing")
            #expect(isIndexingLine(result.stderr), "\(command): \(result.stderr)")
            #expect(!result.stdout.contains("still indexing"), "\(command): standard output is the usual table")
        }
        for command in ["--json groups", "--json list"] {
            let result = try #require(caught[command], "\(command) never carried progress")
            #expect(result.stderr.isEmpty, "\(command): \(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let progress = json?["progress"] as? [String: Any]
            #expect(progress?["found"] is Int && progress?["indexed"] is Int, "\(result.stdout)")
        }

        // Once the index is filled, the same commands say nothing more.
        let groups = try await daemon.photoctl(["groups"])
        #expect(groups.status == 0 && groups.stderr.isEmpty && groups.stdout.contains("Beach"), "\(groups.stderr)")
        let json = try await daemon.photoctlJSON(["groups"])
        #expect(json["progress"] == nil)
    }
}
