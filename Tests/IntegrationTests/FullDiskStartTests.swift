import Foundation
import PhotoTestSupport
import Testing

/// Issue 26: photod started on a really full disk (its index folder on a small tmpfs, filled)
/// serves the index it has, degraded with the reason, and catches up once there is room.
@Suite(.serialized) struct FullDiskStartTests {
    private static var isRoot: Bool { getuid() == 0 }

    private func status(_ daemon: DaemonHarness) throws -> [String: Any] {
        try daemon.photoctlJSON(["status"])
    }

    /// Waits until `condition` holds for the daemon's status.
    private func waitForStatus(_ daemon: DaemonHarness, timeout: TimeInterval,
                               _ condition: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let current = try? status(daemon), condition(current) { return true }
            usleep(200_000)
        }
        return false
    }

    @Test(.enabled(if: isRoot, "mounting a tmpfs for the index folder needs root; skipped"))
    func photodStartedOnAFullDiskServesDegradedAndCatchesUpWhenThereIsRoom() throws {
        let daemon = try DaemonHarness()
        let folder = URL(fileURLWithPath: daemon.database).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", folder])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer {
            daemon.stop()
            _ = try? ProcessRunner.run("/usr/bin/umount", ["-l", folder])
        }
        for n in 0..<20 { try daemon.add("before/IMG_\(n).jpg", Photo.jpeg("Before \(n % 4)")) }
        try daemon.start()
        #expect(try status(daemon)["assets"] as? Int == 20)
        let ids = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(daemon.stop() == 0)

        // The disk fills up to its last block while photod is away, and photos are added.
        let filler = folder + "/filler"
        _ = try ProcessRunner.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(filler)' bs=4k 2>/dev/null; exit 0"])
        let free = try FileManager.default.attributesOfFileSystem(forPath: folder)[.systemFreeSize] as? Int ?? -1
        #expect(free < 4096, "the index's disk is full (\(free) bytes free)")
        for n in 0..<5 { try daemon.add("after/IMG_\(n).jpg", Photo.jpeg("After")) }

        // It starts (it used to exit 1 with "SQLite error 4874") and serves what it has, degraded.
        try daemon.start()
        #expect(daemon.isRunning)
        #expect(daemon.logContains("the disk was full"))
        let degraded = waitForStatus(daemon, timeout: 30) { $0["state"] as? String == "degraded" }
        #expect(degraded, "status: \(String(describing: try? status(daemon)))")
        let problems = try status(daemon)["problems"] as? [String] ?? []
        #expect(problems.first?.contains("the index cannot be written") == true, "problems: \(problems)")
        let served = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(served["before/IMG_7.jpg"] == ids["before/IMG_7.jpg"])

        // Room again: it catches up by itself, ids kept, and keeps room for the next full start.
        try FileManager.default.removeItem(atPath: filler)
        let caughtUp = waitForStatus(daemon, timeout: 150) { current in
            current["state"] as? String == "ready" && current["assets"] as? Int == 25
        }
        #expect(caughtUp, "status: \(String(describing: try? status(daemon)))")
        let after = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(after["after/IMG_3.jpg"] != nil)
        #expect(after["before/IMG_7.jpg"] == ids["before/IMG_7.jpg"])
        let reserve = try FileManager.default.attributesOfItem(atPath: daemon.database + ".reserve")[.size] as? Int
        #expect(reserve == 1 << 20)
    }
}
