import Foundation
import PhotoTestSupport
import Testing

/// `photoctl open` runs xdg-open found on PATH; here a fake one that records its arguments.
@Suite(.serialized) struct OpenCommandTests {
    /// A folder holding an `xdg-open` that writes its argument count and arguments, one a line,
    /// to `record`, and exits with `status`.
    static func fakeXDGOpen(in dir: TemporaryDirectory, record: String, status: Int = 0) throws -> String {
        let script = "#!/bin/sh\nprintf '%s\\n' \"$#\" \"$@\" > '\(record)'\nexit \(status)\n"
        let program = try dir.write("bin/xdg-open", Array(script.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        return dir.file("bin")
    }

    private func daemonWithPhoto() async throws -> (DaemonHarness, String, String) {
        let daemon = try DaemonHarness()
        let path = try daemon.add("album/a photo.jpg", ThumbnailedPhoto.jpeg())
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["album/a photo.jpg"])
        return (daemon, id, path)
    }

    private func photoctl(_ daemon: DaemonHarness, _ arguments: [String], path: String) async throws -> ProcessResult {
        var environment = daemon.environment
        environment["PATH"] = path
        return try await ProcessRunner.run(Binaries.photoctl, arguments, environment: environment)
    }

    @Test func xdgOpenGetsExactlyTheAssetsPath() async throws {
        let (daemon, id, path) = try await daemonWithPhoto()
        let record = daemon.dir.file("argv.txt")
        let bin = try Self.fakeXDGOpen(in: daemon.dir, record: record)
        let result = try await photoctl(daemon, ["open", id], path: bin + ":/usr/bin:/bin")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "1\n\(path)\n")
    }

    @Test func aFailingXDGOpenIsAnError() async throws {
        let (daemon, id, _) = try await daemonWithPhoto()
        let bin = try Self.fakeXDGOpen(in: daemon.dir, record: daemon.dir.file("argv.txt"), status: 4)
        let result = try await photoctl(daemon, ["open", id], path: bin + ":/usr/bin:/bin")
        #expect(result.status == 1)
        #expect(result.stderr.contains("exited with status 4"))
    }

    @Test func withoutXDGOpenItSaysToInstallXDGUtils() async throws {
        let (daemon, id, _) = try await daemonWithPhoto()
        let empty = daemon.dir.file("empty-bin")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let result = try await photoctl(daemon, ["open", id], path: empty)
        #expect(result.status == 1)
        #expect(result.stderr.contains("xdg-utils"))
    }

    @Test func anUnknownIdExits1NamingIt() async throws {
        let (daemon, _, _) = try await daemonWithPhoto()
        let bin = try Self.fakeXDGOpen(in: daemon.dir, record: daemon.dir.file("argv.txt"))
        let result = try await photoctl(daemon, ["open", "00000000deadbeef"], path: bin)
        #expect(result.status == 1)
        #expect(result.stderr.contains("00000000deadbeef"))
        #expect(!FileManager.default.fileExists(atPath: daemon.dir.file("argv.txt")))
    }
}
