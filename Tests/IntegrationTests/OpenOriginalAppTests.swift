import Foundation
import PhotoTestSupport
import Testing

/// OpenOriginal to an app (not the owner): whatever descriptor it gets, reopening it through
/// /proc/self/fd for writing, or writing through it, never reaches the owner's original.
@Suite(.serialized)
struct OpenOriginalAppTests {
    /// A raw-socket app: `id` prints its Authorization.Status; an asset id opens that original,
    /// reads it to the end, then tries every way to write through what it was given; `hoard ID N`
    /// opens it N times keeping every sealed copy, closes them all and opens it once more.
    static let app = """
        import hashlib, json, os, socket, sys
        def call(sock, method, parameters):
            sock.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\\0")
            data, fds = b"", []
            while not data.endswith(b"\\0"):
                chunk, received, flags, _ = socket.recv_fds(sock, 1 << 16, 4)
                if not chunk:
                    break
                data += chunk
                fds += received
            return json.loads(data[:-1]), fds
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(sys.argv[1])
        if sys.argv[2] == "id":
            print(json.dumps(call(sock, "io.photod.Authorization.Status", {})[0]))
            sys.exit()
        if sys.argv[2] == "hoard":
            kinds, kept = [], []
            for _ in range(int(sys.argv[4])):
                reply, fds = call(sock, "io.photod.Library.OpenOriginal", {"id": sys.argv[3], "acceptFileDescriptors": True})
                kinds.append(reply.get("parameters", {}).get("descriptor") or reply.get("error"))
                kept += fds
                if reply.get("parameters", {}).get("descriptor") == "pipe":
                    for fd in fds:
                        while os.read(fd, 1 << 16):
                            pass
            for fd in kept:
                os.close(fd)
            again, fds = call(sock, "io.photod.Library.OpenOriginal", {"id": sys.argv[3], "acceptFileDescriptors": True})
            print(json.dumps({"kinds": kinds, "afterClosing": again.get("parameters", {}).get("descriptor")}))
            sys.exit()
        reply, fds = call(sock, "io.photod.Library.OpenOriginal", {"id": sys.argv[2], "acceptFileDescriptors": True})
        out = {"reply": reply, "fds": len(fds)}
        if fds:
            fd = fds[reply["parameters"]["fileDescriptor"]]
            digest, count = hashlib.sha256(), 0
            while True:
                block = os.read(fd, 1 << 16)
                if not block:
                    break
                digest.update(block)
                count += len(block)
            out["sha256"], out["count"] = digest.hexdigest(), count
            attempts = []
            try:
                again = os.open("/proc/self/fd/%d" % fd, os.O_RDWR | os.O_APPEND)
                try:
                    os.write(again, b"appended by an app")
                    attempts.append("reopened and wrote")
                except OSError as error:
                    attempts.append("reopened, write refused: " + error.strerror)
                try:
                    os.ftruncate(again, 0)
                    attempts.append("reopened and truncated")
                except OSError as error:
                    attempts.append("reopened, truncate refused: " + error.strerror)
            except OSError as error:
                attempts.append("reopen refused: " + error.strerror)
            try:
                os.write(fd, b"x")
                attempts.append("wrote through the descriptor")
            except OSError as error:
                attempts.append("write through the descriptor refused: " + error.strerror)
            out["attempts"] = attempts
        print(json.dumps(out))
        """

    /// Runs the app script (its id is `script:` and its path) with `arguments`; its JSON output.
    static func run(_ daemon: DaemonHarness, _ arguments: [String]) async throws -> [String: Any] {
        let script = daemon.dir.file("gallery.py")
        if !FileManager.default.fileExists(atPath: script) { try app.write(toFile: script, atomically: true, encoding: .utf8) }
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", script, daemon.socket] + arguments)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                            "\(result.stdout) \(result.stderr)")
    }

    /// The SHA-256 of the file at `path`, in hex, as sha256sum prints it.
    static func sha256(of path: String) async throws -> String {
        await String(try ProcessRunner.run("/usr/bin/env", ["sha256sum", path]).stdout.prefix(64))
    }

    @Test(arguments: [("small.jpg", 200_000, "sealedCopy"), ("large.jpg", 33 << 20, "pipe")])
    func anAppCannotWriteTheOriginalThroughWhatOpenOriginalGaveIt(name: String, padding: Int, kind: String) async throws {
        // Only photoctl is the owner: the Python script is an app the owner allows to see everything.
        let daemon = try DaemonHarness(trusted: [])
        let original = JPEGFixture.make(exif: ExifFixture(description: "Beach"), width: 64, height: 48)
            + (0..<padding).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try daemon.add("trip/\(name)", original)
        try await daemon.start()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let digest = try await Self.sha256(of: path)
        let status = try await Self.run(daemon, ["id"])
        let appID = try #require(((status["parameters"] as? [String: Any])?["app"] as? [String: Any])?["id"] as? String,
                                 "\(status)")
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID])
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["trip/\(name)"])

        let output = try await Self.run(daemon, [id])
        let reply = try #require((output["reply"] as? [String: Any])?["parameters"] as? [String: Any], "\(output)")
        #expect(output["fds"] as? Int == 1)
        #expect(reply["descriptor"] as? String == kind, "\(reply)")
        #expect(reply["size"] as? Int == original.count)
        #expect(output["count"] as? Int == original.count)
        #expect(output["sha256"] as? String == digest, "the app read the original's bytes")
        let attempts = output["attempts"] as? [String] ?? []
        if kind == "sealedCopy" {
            // The kernel may refuse the reopen itself; if it allows it, the seals refuse the change.
            #expect(attempts.contains { $0.hasPrefix("reopened, write refused") || $0.hasPrefix("reopen refused") },
                    "\(attempts)")
            #expect(!attempts.contains("reopened and truncated"), "\(attempts)")
        }
        #expect(!attempts.contains("wrote through the descriptor"), "\(attempts)")
        // Whatever the app could do to its copy or its pipe, the original is as it was.
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == original, "\(attempts)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
    }

    @Test func anAppThatHoardsSealedCopiesGetsPipesUntilItLetsThemGo() async throws {
        let daemon = try DaemonHarness(trusted: [])
        let original = JPEGFixture.make(exif: ExifFixture(description: "Beach"), width: 64, height: 48)
            + [UInt8](repeating: 7, count: 100_000)
        try daemon.add("small.jpg", original)
        try await daemon.start()
        let status = try await Self.run(daemon, ["id"])
        let appID = try #require(((status["parameters"] as? [String: Any])?["app"] as? [String: Any])?["id"] as? String,
                                 "\(status)")
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID])
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["small.jpg"])

        // Each copy stays in memory charged to photod for as long as the app keeps it: past its
        // 64, the app gets the original through a pipe, which holds no more than the pipe's buffer.
        let output = try await Self.run(daemon, ["hoard", id, "66"])
        let kinds = output["kinds"] as? [String] ?? []
        #expect(kinds.count == 66, "\(output)")
        #expect(kinds.prefix(64).allSatisfy { $0 == "sealedCopy" }, "\(kinds)")
        #expect(kinds.suffix(2) == ["pipe", "pipe"], "\(kinds)")
        #expect(output["afterClosing"] as? String == "sealedCopy", "the closed copies no longer count: \(output)")
    }
}
