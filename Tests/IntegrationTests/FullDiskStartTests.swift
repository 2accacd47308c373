import Foundation
import PhotoTestSupport
import Testing

/// Issue 26: photod started on a really full disk (its index folder on a small tmpfs, filled)
/// serves the index it has, degraded with the reason, and catches up once there is room.
@Suite(.serialized) struct FullDiskStartTests {
    private static var isRoot: Bool { getuid() == 0 }

    private func status(_ daemon: DaemonHarness) async throws -> [String: Any] {
        try await daemon.photoctlJSON(["status"])
    }

    /// Waits until `condition` holds for the daemon's status.
    private func waitForStatus(_ daemon: DaemonHarness, timeout: TimeInterval,
                               _ condition: ([String: Any]) -> Bool) async -> Bool {
        await eventually(within: timeout) {
            guard let current = try? await status(daemon) else { return false }
            return condition(current)
        }
    }

    @Test(.enabled(if: isRoot, "mounting a tmpfs for the index folder needs root; skipped"))
    func photodStartedOnAFullDiskServesDegradedAndCatchesUpWhenThereIsRoom() async throws {
        let daemon = try DaemonHarness()
        let folder = URL(fileURLWithPath: daemon.database).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await TmpfsMount.with(at: folder, options: "size=8m,mode=0700") {
            for n in 0..<20 { try daemon.add("before/IMG_\(n).jpg", Photo.jpeg("Before \(n % 4)")) }
            try await daemon.start()
            await #expect(try status(daemon)["assets"] as? Int == 20)
            let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            await #expect(daemon.stop() == 0)

            // The disk fills up to its last block while photod is away, and photos are added.
            let filler = folder + "/filler"
            _ = try await ProcessRunner.run("/bin/sh", ["-c", "dd if=/dev/zero of='\(filler)' bs=4k 2>/dev/null; exit 0"])
            let free = try FileManager.default.attributesOfFileSystem(forPath: folder)[.systemFreeSize] as? Int ?? -1
            #expect(free < 4096, "the index's disk is full (\(free) bytes free)")
            for n in 0..<5 { try daemon.add("after/IMG_\(n).jpg", Photo.jpeg("After")) }

            // It starts (it used to exit 1 with "SQLite error 4874") and serves what it has, degraded.
            try await daemon.start()
            #expect(daemon.isRunning)
            #expect(await daemon.logContains("the disk was full"))
            let degraded = await waitForStatus(daemon, timeout: 30) { $0["state"] as? String == "degraded" }
            #expect(degraded, "status: \(daemon.log)")
            let problems = try await status(daemon)["problems"] as? [String] ?? []
            #expect(problems.first?.contains("the index cannot be written") == true, "problems: \(problems)")
            let served = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(served["before/IMG_7.jpg"] == ids["before/IMG_7.jpg"])

            // Room again: it catches up by itself, ids kept, and keeps room for the next full start.
            try FileManager.default.removeItem(atPath: filler)
            let caughtUp = await waitForStatus(daemon, timeout: 150) { current in
                current["state"] as? String == "ready" && current["assets"] as? Int == 25
            }
            #expect(caughtUp, "status: \(daemon.log)")
            let after = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(after["after/IMG_3.jpg"] != nil)
            #expect(after["before/IMG_7.jpg"] == ids["before/IMG_7.jpg"])
            let reserve = try FileManager.default.attributesOfItem(atPath: daemon.database + ".reserve")[.size] as? Int
            #expect(reserve == 1 << 20)
            await daemon.stop()
        }
    }
}
