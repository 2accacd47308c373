import Foundation
import PhotoClient
import PhotoAPI
import PhotoTestSupport
import Testing

/// photoctl's and photod's promises: exit codes, messages, pages, config errors.
@Suite(.serialized) struct CommandLineTests {
    @Test func withoutADaemonPhotoctlSaysHowToStartItAndExits3() async throws {
        let dir = try TemporaryDirectory()
        let result = try await ProcessRunner.run(Binaries.photoctl, ["status"],
                                           environment: ["PHOTOD_SOCKET": dir.file("none.sock")])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot reach photod at \(dir.file("none.sock"))"))
        #expect(result.stderr.contains("systemctl --user start photod.socket"))
    }

    @Test(arguments: [["list", "--limit", "0"], ["frobnicate"], ["show"], ["list", "--sort", "size"]])
    func usageErrorsExit2(arguments: [String]) async throws {
        let result = try await ProcessRunner.run(Binaries.photoctl, arguments, environment: ["PHOTOD_SOCKET": "/nonexistent"])
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
    }

    @Test func helpExits0() async throws {
        let result = try await ProcessRunner.run(Binaries.photoctl, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("groups"))
    }

    @Test func daemonErrorsExit1WithAReadableMessage() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        let unknown = try await daemon.photoctl(["list", "No Such Group"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no group named \"No Such Group\""))
        let badRoot = try await daemon.photoctl(["rescan", "/not/a/root"])
        #expect(badRoot.status == 1)
        #expect(badRoot.stderr.contains("root"))
    }

    @Test func pagesFollowCursorsAndABadCursorIsInvalidCursor() async throws {
        let daemon = try DaemonHarness()
        for n in 0..<25 { try daemon.add(String(format: "p%02d.jpg", n), Photo.jpeg(n % 2 == 0 ? "Even" : "Odd")) }
        try await daemon.start()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await client.listAssets(ListAssetsParameters(sort: .path, limit: 10, cursor: cursor))
            seen += page.assets.map(\.path)
            cursor = page.cursor
            pages += 1
        } while cursor != nil
        #expect(pages == 3)
        #expect(seen.count == 25)
        #expect(seen == seen.sorted())
        let even = try await client.allAssets(group: "Even")
        #expect(even.count == 13)
        let thrown = await #expect(throws: PhotoClientError.self) {
            _ = try await client.listAssets(ListAssetsParameters(cursor: "bm90IGEgY3Vyc29y"))
        }
        guard case .daemon(let error)? = thrown else {
            Issue.record("expected an error reply from photod, got \(String(describing: thrown))")
            return
        }
        #expect(error.name == "io.photod.Library.InvalidCursor")
        let limited = try await daemon.photoctlJSON(["list", "--limit", "7"])
        #expect(limited.assets.count == 7)
        await client.close()
    }

    @Test func aBadConfigIsOneLineNamingFileAndKeyWithStatus78() async throws {
        let dir = try TemporaryDirectory()
        let config = try dir.write("photod.toml", Array("max_connections = \"lots\"\n".utf8))
        let result = try await ProcessRunner.run(Binaries.photod, ["--config", config, "--socket", dir.file("s")])
        #expect(result.status == 78)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(config))
        #expect(result.stderr.contains("max_connections"))
    }

    @Test func aBadConfigValueOfAMegabyteIsOneShortLine() async throws {
        let dir = try TemporaryDirectory()
        let value = String(repeating: "v", count: 1_000_000)
        let config = try dir.write("photod.toml", Array("log_level = \"\(value)\"\n".utf8))
        let result = try await ProcessRunner.run(Binaries.photod, ["--config", config, "--socket", dir.file("s")])
        #expect(result.status == 78)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.utf8.count < 400, "\(result.stderr.utf8.count) bytes")
        #expect(result.stderr.contains("log_level") && result.stderr.contains("… (1000000 bytes)"), "\(result.stderr)")
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStart() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let second = try await ProcessRunner.run(
            Binaries.photod, ["--root", daemon.library, "--database", daemon.dir.file("other.sqlite"),
                              "--socket", daemon.socket], environment: daemon.environment, timeout: 30)
        #expect(second.status == 1)
        #expect(second.stderr.contains(daemon.socket))
        await #expect(try daemon.photoctlJSON(["status"])["state"] as? String == "ready", "the first one carries on")
    }
}
