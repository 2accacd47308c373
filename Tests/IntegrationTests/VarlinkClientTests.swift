import Foundation
import PhotoTestSupport
import Testing

/// Tools nobody here wrote can use the daemon: the reference Python varlink client, and raw sockets.
@Suite(.serialized) struct VarlinkClientTests {
    /// Runs the Python varlink CLI; it exits 0 even on a varlink error, so errors are read from stderr.
    private func python(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/env", ["python3", "-m", "varlink.cli"] + arguments)
    }

    /// The README's varlink.cli commands, run as printed by a shell (photoctl on PATH), on a
    /// photod that trusts no program but its photoctl: refused first, allowed once, then served.
    @Test func theReadmesVarlinkCommandsWorkAsPrinted() async throws {
        let readme = try String(contentsOf: Binaries.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "so the owner allows it once:\n\n```sh\n").dropFirst().first?
            .components(separatedBy: "\n```").first, "the README's varlink.cli example")
        let lines = block.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains("varlink.cli") }, "\(lines)")
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("a.jpg", Photo.jpeg("Beach Trip"))
        try await daemon.start()
        var environment = daemon.environment
        environment["PATH"] = Binaries.productsFolder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        func shell(_ line: String) async throws -> ProcessResult {
            try await ProcessRunner.run("/bin/sh", ["-c", line], environment: environment)
        }
        let refused = try await shell(lines[2])
        #expect(refused.stderr.contains("AuthorizationRequired") || refused.stdout.contains("AuthorizationRequired"),
                "before the grant: \(refused.stdout) \(refused.stderr)")
        let info = try await shell(lines[0])
        #expect(info.stdout.contains("io.photod.Library"), "\(info.stderr)")
        let allowed = try await shell(lines[1])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let listed = try await shell(lines[2])
        #expect(listed.stderr.isEmpty, "\(listed.stderr)")
        #expect(try listed.json().assets.first?["group"] as? String == "Beach Trip", "\(listed.stdout)")
    }

    @Test func theReferencePythonClientListsGroupsAndAssets() async throws {
        let check = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import varlink"])
        try #require(check.status == 0, "the Python varlink package is missing: run the README's test command, which installs it")
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("Beach"))
        try daemon.add("b.jpg", Photo.jpeg(nil))
        try await daemon.start()
        let address = "unix:" + daemon.socket

        let groups = try await python(["call", address + "/io.photod.Library.ListGroups", "{}"])
        #expect(groups.stderr.isEmpty, "python varlink: \(groups.stderr)")
        let parsed = try groups.json()
        #expect(parsed.groupCounts == ["Beach": 1, "Other": 1])

        let assets = try await python(["call", address + "/io.photod.Library.ListAssets", "{\"group\": \"Beach\", \"limit\": 5}"])
        #expect(assets.stderr.isEmpty, "python varlink: \(assets.stderr)")
        #expect(try assets.json().assets.first?["group"] as? String == "Beach")

        let info = try await python(["info", address])
        #expect(info.stdout.contains("io.photod.Library"))

        let missing = try await python(["call", address + "/io.photod.Library.ListAssets", "{\"group\": \"Nope\"}"])
        #expect(missing.stderr.contains("GroupNotFound"))
    }

    @Test func protocolViolationsCloseOnlyThatConnection() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        // Garbage, a non-object, conflicting flags, and a message past 1 MiB with no NUL.
        let script = """
            import socket, sys
            def send(payload):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(sys.argv[1]); s.settimeout(10)
                try:
                    s.sendall(payload)
                except OSError:
                    pass
                data = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk: break
                        data += chunk
                except OSError:
                    pass
                return data
            for payload in [b"{not json\\0", b"[1,2]\\0",
                            b'{"method":"io.photod.Library.Status","oneway":true,"more":true}\\0',
                            b"{" + b" " * (1 << 20) + b"x"]:
                print(len(send(payload)))
            print(send(b'{"method":"io.photod.Library.Status"}\\0')[:60])
            """
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, daemon.socket])
        let lines = result.stdout.split(separator: "\n")
        #expect(Array(lines.prefix(4)) == ["0", "0", "0", "0"], "each violation is closed without a reply: \(result.stderr)")
        #expect(lines.last?.contains("parameters") == true)
        #expect(daemon.isRunning)
        await #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 1)
    }
}
