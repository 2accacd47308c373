import Foundation
import PhotoTestSupport
import Testing

/// OpenOriginal with `stream: true`, for a client that cannot receive descriptors: the bytes in
/// replies at increasing offsets, under the same permissions as the descriptor path.
@Suite(.serialized)
struct StreamedOriginalTests {
    /// A photo larger than two chunks, so three replies must join up exactly.
    private static func bigPhoto(_ description: String) -> [UInt8] {
        var generator = SplitMix64(seed: 7)
        return ThumbnailedPhoto.jpeg(description) + (0..<600_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    @Test func aLimitedAppStreamsOnlyItsSelection() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach.jpg", Self.bigPhoto("Beach"))
        try daemon.add("hike.jpg", ThumbnailedPhoto.jpeg("Hike"))
        try await daemon.start()
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let (beach, hike) = (try #require(ids["beach.jpg"]), try #require(ids["hike.jpg"]))
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)

        // No grant yet: refused as the descriptor path refuses it.
        let refused = try await app.streamedOriginal(beach)
        #expect(refused["error"] as? String == "io.photod.Library.AuthorizationRequired", "\(refused)")

        let request = try app.stream(["request", "to print a calendar"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "no pending reply: \(request.stderr)")
        _ = try await daemon.photoctlJSON(["permissions", "allow", "viewer.py", "--group", "Beach"])
        await #expect(request.exitStatus() == 0)

        let streamed = try await app.streamedOriginal(beach)
        let original = try fileBytes(daemon.library + "/beach.jpg")
        #expect(streamed["count"] as? Int == original.count, "\(streamed)")
        #expect(streamed["size"] as? Int == original.count)
        #expect(streamed["offsets"] as? [Int] == [0, 262_144, 524_288], "\(streamed)")
        let digest = try await ProcessRunner.run("/usr/bin/env", ["sha256sum", daemon.library + "/beach.jpg"]).stdout.prefix(64)
        #expect(streamed["sha256"] as? String == String(digest))

        // Outside its selection: exactly as an id that does not exist.
        let hidden = try await app.streamedOriginal(hike)
        #expect(hidden["error"] as? String == "io.photod.Library.AssetNotFound", "\(hidden)")
        let missing = try await app.streamedOriginal("00000000deadbeef")
        #expect(missing["error"] as? String == "io.photod.Library.AssetNotFound", "\(missing)")
    }

    @Test func streamNeedsMoreAndExcludesDescriptors() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", ThumbnailedPhoto.jpeg("A"))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["a.jpg"])
        // A name the harness trusts as the owner: the refusals here are about the call's shape.
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "watch_changes.py")
        let withoutMore = try await app.call("io.photod.Library.OpenOriginal", "{\"id\": \"\(id)\", \"stream\": true}")
        #expect(withoutMore["error"] as? String == "org.varlink.service.ExpectedMore", "\(withoutMore)")
        let both = try await app.call("io.photod.Library.OpenOriginal",
                                      "{\"id\": \"\(id)\", \"stream\": true, \"acceptFileDescriptors\": true}")
        #expect(both["error"] as? String == "org.varlink.service.InvalidParameter", "\(both)")
        // Neither: the hint now names the streamed form.
        let neither = try await app.call("io.photod.Library.OpenOriginal", "{\"id\": \"\(id)\"}")
        #expect(neither["error"] as? String == "io.photod.Library.FileDescriptorsRequired", "\(neither)")
        #expect("\(neither)".contains("stream: true"), "\(neither)")
    }
}
