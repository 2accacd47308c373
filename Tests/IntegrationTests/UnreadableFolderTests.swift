import Foundation
import PhotoTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A folder inside the library that photod cannot read is not an empty folder: its photos stay
/// indexed, with their ids, until it can be read again; photos gone elsewhere still leave. photod
/// runs without the capabilities that let root read any folder, so a folder's mode is what a
/// user's daemon meets (EACCES, as EIO from a failing disk would be).
@Suite(.serialized) struct UnreadableFolderTests {
    static var canDropCapabilities: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    private static func ids(_ daemon: DaemonHarness) async throws -> [String: String] {
        try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
    }

    /// Runs `body` with a daemon that lacks CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, over a
    /// library of `a.jpg` and two photos in `locked/`; every mode is put back afterwards so the
    /// temporary folder can be removed.
    private static func withDaemon(_ body: (DaemonHarness) async throws -> Void) async throws {
        let daemon = try DaemonHarness()
        daemon.launcher = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"]
        try daemon.add("a.jpg", Photo.jpeg("Trip"))
        try daemon.add("locked/b.jpg", Photo.jpeg("Trip"))
        try daemon.add("locked/deeper/c.jpg", Photo.jpeg("Trip"))
        try await withClosing(daemon, close: { daemon in
            await daemon.stop()
            chmod(daemon.library + "/locked", 0o755)
        }) { daemon in
            try await daemon.start()
            try await body(daemon)
        }
    }

    @Test(.enabled(if: canDropCapabilities, "dropping photod's capabilities needs root and setpriv"),
          arguments: [0o000, 0o400] as [mode_t])
    func photosInAFolderThatCannotBeReadStayIndexed(mode: mode_t) async throws {
        try await Self.withDaemon { daemon in
            let before = try await Self.ids(daemon)
            #expect(before.count == 3, "\(daemon.log)")
            // 000: the folder cannot be opened. 400: it can be listed, but its files cannot be
            // stat-ed (no search permission).
            #expect(chmod(daemon.library + "/locked", mode) == 0)
            try FileManager.default.removeItem(atPath: daemon.library + "/a.jpg")
            let rescan = try await daemon.photoctl(["rescan"])
            #expect(rescan.status == 0, "\(rescan.stderr)")
            var after = before
            after["a.jpg"] = nil
            #expect(try await Self.ids(daemon) == after, "only the photo really gone leaves: \(daemon.log)")
            #expect(daemon.log.contains("cannot read a folder, keeping its photos as indexed"), "\(daemon.log)")

            // Readable again: what changed meanwhile is found, and the others keep their ids.
            #expect(chmod(daemon.library + "/locked", 0o755) == 0)
            try daemon.add("locked/new.jpg", Photo.jpeg("Trip"))
            try FileManager.default.removeItem(atPath: daemon.library + "/locked/deeper/c.jpg")
            _ = try await daemon.photoctl(["rescan"])
            let final = try await Self.ids(daemon)
            #expect(final["locked/b.jpg"] == before["locked/b.jpg"], "\(final)")
            #expect(final["locked/new.jpg"] != nil && final["locked/deeper/c.jpg"] == nil, "\(final)")
        }
    }

    @Test(.enabled(if: canDropCapabilities, "dropping photod's capabilities needs root and setpriv"))
    func aFolderThatCannotBeReadAtStartKeepsItsPhotos() async throws {
        try await Self.withDaemon { daemon in
            let before = try await Self.ids(daemon)
            await daemon.stop()
            #expect(chmod(daemon.library + "/locked", 0o000) == 0)
            try await daemon.start()
            #expect(try await Self.ids(daemon) == before, "the start-up reconcile keeps them: \(daemon.log)")
        }
    }

    @Test(.enabled(if: canDropCapabilities, "dropping photod's capabilities needs root and setpriv"))
    func thousandsOfFilesThatCannotBeReadWriteABoundedNumberOfLogLines() async throws {
        let daemon = try DaemonHarness()
        daemon.launcher = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"]
        try daemon.add("ok.jpg", Photo.jpeg("Trip"))
        for index in 0..<60 {
            let path = try daemon.add("locked/\(index).jpg", Photo.jpeg("Trip"))
            #expect(chmod(path, 0) == 0)
        }
        try await withClosing(daemon, close: { await $0.stop() }) { daemon in
            try await daemon.start()
            #expect(try await daemon.photoctlJSON(["list"]).assets.count == 1)
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("keeping what the index knows") }
            #expect(lines.count == 20, "at most 20 a minute: \(daemon.log)")
        }
    }
}
