import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing

/// Large image replies: photoctl takes the largest photod sends, and connections that never read
/// theirs keep photod under 150 MiB while the owner is still answered.
@Suite(.serialized)
struct ImageReplyBoundTests {
    /// An app that asks for a 2048-px PNG on each of `count` connections and never reads a byte of
    /// the replies; it prints how many of the connections photod hung up once `least` seconds
    /// have passed and photod hung up one, or at `most` seconds. (An app's images are made at
    /// nice 10, so on a busy machine the replies that fill the bound come late.)
    static let flood = """
        import json, select, socket, sys, time
        def connect():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(sys.argv[1])
            return sock
        def send(sock, method, parameters):
            sock.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\\0")
        if sys.argv[2] == "id":
            sock = connect()
            send(sock, "io.photod.Authorization.Status", {})
            data = b""
            while not data.endswith(b"\\0"):
                data += sock.recv(1 << 16)
            print(data[:-1].decode())
            sys.exit()
        asset, count, least, most = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
        socks = []
        for _ in range(count):
            sock = connect()
            send(sock, "io.photod.Library.RequestImage", {"id": asset, "width": 2048, "height": 2048, "format": "png"})
            socks.append(sock)
        print("sent", flush=True)
        start = time.monotonic()
        poller = select.poll()
        for sock in socks:
            poller.register(sock, select.POLLRDHUP)
        while True:
            time.sleep(0.25)
            hung = sum(1 for _, events in poller.poll(0) if events & (select.POLLRDHUP | select.POLLHUP))
            waited = time.monotonic() - start
            if (hung and waited >= least) or waited >= most:
                break
        print(json.dumps({"closedByPhotod": hung}), flush=True)
        """

    static func rssKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    @Test func photoctlTakesTheLargestPNGPhotodSends() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("noise.png", NoisePNG.make(width: 2048, height: 2048))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["noise.png"])
        let output = daemon.dir.file("big.png")
        let result = try await daemon.photoctl(["thumbnail", id, "--size", "2048", "--format", "png", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        // More than 16 MiB as base64: what photoctl refused before.
        #expect(size > 12 << 20, "\(size) bytes")
        #expect(size / 3 * 4 <= RequestImageReply.maximumDataBytes)
    }

    @Test func connectionsThatNeverReadBigRepliesKeepPhotodsMemoryBounded() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("noise.png", NoisePNG.make(width: 2048, height: 2048))
        try daemon.add("small.jpg", JPEGFixture.make(exif: ExifFixture(description: "Small")))
        try await daemon.start()
        let script = daemon.dir.file("flood.py")
        try Self.flood.write(toFile: script, atomically: true, encoding: .utf8)
        let status = try await ProcessRunner.run("/usr/bin/env", ["python3", script, daemon.socket, "id"])
        let parsed = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let appID = try #require(((parsed?["parameters"] as? [String: Any])?["app"] as? [String: Any])?["id"] as? String,
                                 "\(status.stdout) \(status.stderr)")
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID])
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let noise = try #require(ids["noise.png"])
        let small = try #require(ids["small.jpg"])
        let pid = try #require(daemon.pid)
        let baseline = try #require(Self.rssKiB(of: pid))

        let app = try StreamingProcess("/usr/bin/env", ["python3", script, daemon.socket, noise, "16", "30", "120"],
                                       directory: daemon.dir, name: "flood")
        var peak = baseline
        var ownerAnswers = 0
        // The owner asks three times once the flood is under way; the app ends by itself.
        let ownerFrom = Date().addingTimeInterval(9)
        let giveUp = Date().addingTimeInterval(150)
        while app.isRunning, Date() < giveUp {
            try? await Task.sleep(for: .milliseconds(250))
            peak = max(peak, Self.rssKiB(of: pid) ?? 0)
            if ownerAnswers < 3, Date() > ownerFrom {
                let answer = try await daemon.photoctl(["thumbnail", small, "--size", "128", "-o", daemon.dir.file("owner.jpg"),
                                                  "--force"])
                #expect(answer.status == 0, "the owner is answered during the flood: \(answer.stderr)")
                ownerAnswers += 1
            }
        }
        #expect(await app.exitStatus(timeout: 10) == 0, "\(app.stderr)")
        let said = app.lines.joined(separator: "\n")
        let closed = app.objects.last?["closedByPhotod"] as? Int
        // Sixteen 22 MB replies queued whole held about 350 MiB; written two at a time in pieces,
        // each held as base64 text, 211 MiB. Now an app's two replies under way are held as the
        // image bytes and made into base64 a piece at a time, and a connection that takes nothing
        // is closed. The goal is photod under 150 MiB in all.
        let grownMiB = (peak - baseline) / 1024
        #expect(peak / 1024 < 150, "photod grew by \(grownMiB) MiB to \(peak / 1024) MiB")
        #expect((closed ?? 0) >= 1, "photod hung up on connections that never read: \(said)")
        #expect(ownerAnswers == 3)
        #expect(daemon.isRunning)
    }
}
