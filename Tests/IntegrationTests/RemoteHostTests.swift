import Foundation
import PhotoTestSupport
import Testing

/// `photoctl --host` and `photoctl bridge` through a real OpenSSH server on this machine: the
/// far side's photod names the caller from the bridge's login, and originals come as bytes.
@Suite(.serialized, .enabled(if: SSHServerFixture.available, "needs openssh-server and openssh-client"))
struct RemoteHostTests {
    /// A photod with two photos (one larger than a streamed chunk) and an SSH server reaching it.
    private func started() async throws -> (DaemonHarness, SSHServerFixture, [String: String]) {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", ThumbnailedPhoto.jpeg("Holidays"))
        // Past two 256 KiB chunks: the streamed reply's offsets must join up.
        var big = ThumbnailedPhoto.jpeg("Holidays")
        var generator = SplitMix64(seed: 31)
        big += (0..<600_001).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let path = try daemon.add("big.jpg", big)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: path)
        try await daemon.start()
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        return (daemon, try await SSHServerFixture(serving: daemon), ids)
    }

    @Test func readCommandsAnswerAsLocally() async throws {
        let (daemon, ssh, ids) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        for arguments in [["status"], ["groups"], ["list"], ["find", "beach"], ["show", try #require(ids["beach.jpg"])]] {
            let local = try await daemon.photoctl(arguments + ["--json"])
            let remote = try await ssh.photoctl(daemon, arguments + ["--json"])
            #expect(remote.status == 0, "\(arguments): \(remote.stderr) \(ssh.log)")
            if arguments != ["status"] { #expect(remote.stdout == local.stdout, "\(arguments)") }
        }
        // PHOTOD_HOST does what --host does.
        let viaEnvironment = try await ProcessRunner.run(
            Binaries.photoctl, ["groups", "--json"], environment: ssh.environment(daemon).merging(["PHOTOD_HOST": "127.0.0.1"]) { $1 })
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr)")
        #expect(viaEnvironment.stdout == (try await daemon.photoctl(["groups", "--json"])).stdout)
        await ssh.stop()
    }

    @Test func exportStreamsTheExactBytesAndTime() async throws {
        let (daemon, ssh, ids) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try await ssh.photoctl(daemon, ["export", try #require(ids["big.jpg"]), try #require(ids["beach.jpg"]), folder])
        await ssh.stop()
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["big.jpg", "beach.jpg"] {
            #expect(try fileBytes(folder + "/" + name) == fileBytes(daemon.library + "/" + name), "\(name)")
        }
        let modified = try FileManager.default.attributesOfItem(atPath: folder + "/big.jpg")[.modificationDate] as? Date
        #expect(modified == Date(timeIntervalSince1970: 1_000_000_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["beach.jpg", "big.jpg"])
    }

    @Test func thumbnailAndWatchWork() async throws {
        let (daemon, ssh, ids) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let output = daemon.dir.file("thumb.jpg")
        let thumbnail = try await ssh.photoctl(daemon, ["thumbnail", try #require(ids["beach.jpg"]), "--size", "128", "-o", output])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(try fileBytes(output).starts(with: [0xFF, 0xD8]))
        let watch = try StreamingProcess(Binaries.photoctl, ["--host", "127.0.0.1", "watch", "--json"],
                                         environment: ssh.environment(daemon), directory: daemon.dir, name: "watch")
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        try daemon.add("new.jpg", Photo.jpeg("Watched"))
        #expect(await watch.wait(timeout: 60) { $0.lines.count >= 2 }, "\(watch.lines) \(watch.stderr)")
        // photod going away ends the watch promptly, saying so, through ssh and the bridge.
        _ = await daemon.stop()
        let status = await watch.exitStatus(timeout: 15)
        await watch.kill()
        await ssh.stop()
        #expect(status == 3, "\(watch.stderr)")
        #expect(watch.stderr.contains("photod on 127.0.0.1"), "\(watch.stderr)")
        #expect(watch.stderr.contains("photod stopped; resume with photoctl --host 127.0.0.1 watch --since"), "\(watch.stderr)")
    }

    @Test func theReferencePythonClientCallsThroughTheBridge() async throws {
        let (daemon, ssh, _) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let command = "\(ssh.sshWrapper) 127.0.0.1 photoctl bridge"
        let result = try await ProcessRunner.run("/usr/bin/env", [
            "python3", "-m", "varlink.cli", "--bridge", command, "call", "io.photod.Library.ListGroups", "{}",
        ], environment: ["PHOTOD_SOCKET": "/nonexistent/io.photod"])
        await ssh.stop()
        #expect(daemon.isRunning)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Holidays"), "\(result.stdout) \(result.stderr)")
    }

    @Test func callsPipedThroughSSHGetEveryReply() async throws {
        let (daemon, ssh, _) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        // ssh's stdin ends as soon as the calls are written; the bridge there half-closes.
        let command = "printf '\(BridgeCommandTests.pipedCalls)' | \(ssh.sshWrapper) 127.0.0.1 photoctl bridge"
        let result = try await ProcessRunner.run("/bin/sh", ["-c", command], environment: daemon.environment, timeout: 30)
        await ssh.stop()
        #expect(result.status == 0, "\(result.stderr)")
        BridgeCommandTests.expectPipedReplies(result.stdout)
    }

    @Test func openShowsAPrivateCopyOfTheOriginalAndClearsOldOnes() async throws {
        let (daemon, ssh, ids) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let record = daemon.dir.file("argv.txt")
        let first = try await Self.open(try #require(ids["big.jpg"]), daemon, ssh, record: record)
        #expect(first.status == 0, "\(first.stderr)")
        // The viewer got one path: a copy named as the original, in a private folder for copies.
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        let copy = try #require(lines.count == 2 ? lines[1] : nil, "\(lines)")
        let root = try #require(daemon.environment["XDG_RUNTIME_DIR"]) + "/photoctl-open"
        #expect(copy.hasPrefix(root + "/") && copy.hasSuffix("/big.jpg"), "\(copy)")
        #expect(try fileBytes(copy) == fileBytes(daemon.library + "/big.jpg"))
        let folder = (copy as NSString).deletingLastPathComponent
        #expect(try Self.mode(copy) == 0o600)
        #expect(try Self.mode(folder) == 0o700)
        #expect(try Self.mode(root) == 0o700)
        #expect(first.stderr.contains("\(copy) is a copy fetched from 127.0.0.1"), "\(first.stderr)")
        #expect(first.stderr.contains("edits to it do not reach the library"), "\(first.stderr)")
        // A day later, the next open removes that copy and keeps its own.
        let dayAgo = Date().addingTimeInterval(-25 * 3600)
        try FileManager.default.setAttributes([.modificationDate: dayAgo], ofItemAtPath: folder)
        let second = try await Self.open(try #require(ids["beach.jpg"]), daemon, ssh, record: record)
        await ssh.stop()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder), "an old copy is removed")
        let kept = try FileManager.default.contentsOfDirectory(atPath: root)
        #expect(kept.count == 1, "\(kept)")
        #expect(try String(contentsOfFile: record, encoding: .utf8).hasSuffix("/beach.jpg\n"))
    }

    @Test func openOfAPhotoNotThereLeavesNoCopy() async throws {
        let (daemon, ssh, _) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let record = daemon.dir.file("argv.txt")
        let result = try await Self.open("00000000deadbeef", daemon, ssh, record: record)
        await ssh.stop()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("00000000deadbeef"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: record), "no viewer runs")
        let root = try #require(daemon.environment["XDG_RUNTIME_DIR"]) + "/photoctl-open"
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }

    /// `photoctl --host 127.0.0.1 open ID` with a fake xdg-open that writes what it got to `record`.
    private static func open(_ id: String, _ daemon: DaemonHarness, _ ssh: SSHServerFixture,
                             record: String) async throws -> ProcessResult {
        let bin = try OpenCommandTests.fakeXDGOpen(in: daemon.dir, record: record)
        return try await ProcessRunner.run(Binaries.photoctl, ["--host", "127.0.0.1", "open", id],
                                           environment: ssh.environment(daemon).merging(["PATH": bin + ":/usr/bin:/bin"]) { $1 })
    }

    /// The permission bits of `path`.
    private static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func anAppWithoutAGrantIsRefusedAsLocally() async throws {
        let (daemon, ssh, _) = try await started()
        // sshd is this process's child: never left running, whatever fails.
        defer { Task { await ssh.stop() } }
        let local = try await daemon.photoctl(["--as-app", "groups"])
        let remote = try await ssh.photoctl(daemon, ["--as-app", "groups"])
        await ssh.stop()
        #expect(local.status == 1 && remote.status == 1, "\(local.stderr) | \(remote.stderr)")
        #expect(remote.stderr.contains("photod on 127.0.0.1"), "\(remote.stderr)")
        #expect(!remote.stdout.contains("Holidays"))
    }

    @Test func anSSHFailureIsSSHsMessageAndTheCommandWithStatus3() async throws {
        let daemon = try DaemonHarness()
        let ssh = try await SSHServerFixture(serving: daemon)
        await ssh.stop()
        // Nothing listens there any more: ssh says so itself.
        let result = try await ssh.photoctl(daemon, ["groups"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("Connection refused"), "\(result.stderr)")
        #expect(result.stderr.contains("\(ssh.sshWrapper) -T -- 127.0.0.1 photoctl bridge"), "\(result.stderr)")
    }

    @Test func aPhotodTheBridgeCannotReachIsSaidOnBothSidesWithStatus3() async throws {
        let daemon = try DaemonHarness()
        let ssh = try await SSHServerFixture(serving: daemon)
        defer { Task { await ssh.stop() } }
        let result = try await ssh.photoctl(daemon, ["groups"])
        await ssh.stop()
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach photod at \(daemon.socket)"), "the far side's own words: \(result.stderr)")
        #expect(result.stderr.contains("photoctl bridge there could not reach photod"), "\(result.stderr)")
    }

    @Test func importSendsTheBytesInTheCallAndRefusesAPhotoTooLargeForIt() async throws {
        let (daemon, ssh, _) = try await started()
        defer { Task { await ssh.stop() } }
        let small = try daemon.dir.write("trip.jpg", ThumbnailedPhoto.jpeg("Trip"))
        let large = try daemon.dir.write("large.jpg", ThumbnailedPhoto.jpeg("Trip") + [UInt8](repeating: 7, count: 800_000))
        let result = try await ssh.photoctl(daemon, ["import", large, small])
        await ssh.stop()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("large.jpg"), "\(result.stderr)")
        let imported = try #require(result.stdout.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(try fileBytes(imported) == fileBytes(small), "\(result.stdout)")
    }
}
