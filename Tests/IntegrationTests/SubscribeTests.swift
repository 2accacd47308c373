import Foundation
import PhotoTestSupport
import Testing

/// Subscribe's contract: more only, the current token first, replay with since, resync when forgotten.
@Suite(.serialized) struct SubscribeTests {
    @Test func sinceReplaysTheLogAndAForgottenTokenIsAResync() async throws {
        let daemon = try DaemonHarness(settings: "change_retention = 2\n")
        try await daemon.start()
        let live = try await ChangeRecorder.start(socket: daemon.socket)
        for n in 0..<4 {
            try daemon.add("p\(n).jpg", Photo.jpeg("G"))
            try await live.wait { $0.inserted.count == n + 1 }
        }
        let tokens = live.received.map(\.token)
        #expect(tokens == tokens.sorted() && Set(tokens).count == tokens.count, "tokens only grow")
        let last = try #require(tokens.last)

        // Kept: the changes after last-2 come back in order, after the current token.
        let replay = try await ChangeRecorder.start(socket: daemon.socket, since: last - 2)
        #expect(replay.startToken == last)
        try await replay.wait { $0.received.count == 2 }
        #expect(replay.received.map(\.token) == [last - 1, last])
        #expect(replay.received.flatMap(\.inserted) == Array(live.inserted.suffix(2)))

        // Pruned away (the log keeps the newest 2): one resync reply.
        let stale = try await ChangeRecorder.start(socket: daemon.socket, since: 0)
        try await stale.wait { !$0.received.isEmpty }
        #expect(stale.received.first?.resync == true)
    }

    @Test func subscribeWithoutMoreIsExpectedMore() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(b'{"method":"io.photod.Library.Subscribe","parameters":{}}\\0')
            print(s.recv(4096).rstrip(b"\\0").decode())
            """
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, daemon.socket])
        #expect(result.stdout.contains("org.varlink.service.ExpectedMore"), "\\(result.stdout) \\(result.stderr)")
    }

    @Test func photoctlWatchPrintsOneJSONObjectPerLineAsChangesHappen() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let watch = try StreamingProcess(Binaries.photoctl, ["watch", "--json"], environment: daemon.environment,
                                         directory: daemon.dir, name: "watch")
        // Its first line is the subscription's start: from then on no change is missed.
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        try daemon.add("new.jpg", Photo.jpeg("Watched"))
        #expect(await watch.wait(timeout: 60) { $0.lines.count >= 2 }, "\(watch.lines) \(watch.stderr)")
        await watch.kill()
        let lines = watch.lines
        #expect(lines.count == 2, "\(lines)")
        let change = try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8))
        #expect(((change as? [String: Any])?["inserted"] as? [String])?.count == 1)
        #expect(((change as? [String: Any])?["groupsChanged"] as? [String]) == ["Watched"])
    }

    @Test func theREADMEsPythonExampleReceivesChanges() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let example = Binaries.repository.appendingPathComponent("examples/watch_changes.py").path
        let watch = try StreamingProcess("/usr/bin/env", ["python3", example, daemon.socket], directory: daemon.dir, name: "example")
        // It prints the subscription's first reply as soon as it has it: from then on no change is missed.
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        try daemon.add("seen.jpg", Photo.jpeg("Seen"))
        let added = { (watch: StreamingProcess) in
            watch.objects.compactMap { $0["added"] as? [String] }.flatMap { $0 }
        }
        #expect(await watch.wait(timeout: 60) { added($0).contains(daemon.library + "/seen.jpg") },
                "stdout: \(watch.lines) stderr: \(watch.stderr)")
        await watch.kill()
    }
}
