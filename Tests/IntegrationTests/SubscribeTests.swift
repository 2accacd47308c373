import Foundation
import PhotoTestSupport
import Testing

/// Subscribe's contract: more only, the current token first, replay with since, resync when forgotten.
@Suite(.serialized) struct SubscribeTests {
    @Test func sinceReplaysTheLogAndAForgottenTokenIsAResync() async throws {
        let daemon = try DaemonHarness(settings: "change_retention = 2\n")
        try daemon.start()
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

    @Test func subscribeWithoutMoreIsExpectedMore() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(b'{"method":"io.photod.Library.Subscribe","parameters":{}}\\0')
            print(s.recv(4096).rstrip(b"\\0").decode())
            """
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, daemon.socket])
        #expect(result.stdout.contains("org.varlink.service.ExpectedMore"), "\\(result.stdout) \\(result.stderr)")
    }

    // timeout sends SIGKILL: children of the test runner inherit a blocked SIGTERM.
    @Test func photoctlWatchPrintsOneJSONObjectPerLineAsChangesHappen() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let output = Mutexed<ProcessResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        let environment = daemon.environment
        DispatchQueue.global().async {
            output.set(try? ProcessRunner.run("/usr/bin/timeout", ["-s", "KILL", "3", Binaries.photoctl, "watch", "--json"],
                                              environment: environment))
            done.signal()
        }
        usleep(1_000_000)
        try daemon.add("new.jpg", Photo.jpeg("Watched"))
        done.wait()
        let lines = try #require(output.get()).stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let change = try JSONSerialization.jsonObject(with: Data(lines.last.map(String.init)?.utf8 ?? "".utf8))
        #expect(((change as? [String: Any])?["inserted"] as? [String])?.count == 1)
        #expect(((change as? [String: Any])?["groupsChanged"] as? [String]) == ["Watched"])
    }

    @Test func theREADMEsPythonExampleReceivesChanges() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let example = Binaries.repository.appendingPathComponent("examples/watch_changes.py").path
        let output = Mutexed<ProcessResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            output.set(try? ProcessRunner.run("/usr/bin/timeout", ["-s", "KILL", "4", "python3", example, daemon.socket]))
            done.signal()
        }
        usleep(1_500_000)
        try daemon.add("seen.jpg", Photo.jpeg("Seen"))
        done.wait()
        let result = try #require(output.get())
        let lines = result.stdout.split(separator: "\n")
        let added = lines.compactMap { line -> [String]? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["added"] as? [String]
        }.flatMap { $0 }
        #expect(added.contains(daemon.library + "/seen.jpg"), "stdout: \(result.stdout) stderr: \(result.stderr)")
    }
}
