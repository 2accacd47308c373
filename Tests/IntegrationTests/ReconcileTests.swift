import Foundation
import PhotoTestSupport
import Testing

/// Start-up and Rescan reconcile the index with the disk, keeping ids.
@Suite(.serialized) struct ReconcileTests {
    /// Folders past a one-watch budget are invisible to inotify until a poll or a Rescan.
    @Test func rescanFindsEveryKindOfChangeAndKeepsIds() async throws {
        let daemon = try DaemonHarness(settings: "max_watches = 1\npoll_interval = 3600\n")
        try daemon.add("a/keep.jpg", Photo.jpeg("Keep"))
        try daemon.add("a/edit.jpg", Photo.jpeg("Before"))
        try daemon.add("a/gone.jpg", Photo.jpeg("Gone"))
        try daemon.add("a/old/move-me.jpg", Photo.jpeg("Moved"))
        try daemon.add("b/placeholder.jpg", Photo.jpeg("Keep"))
        try await daemon.start()
        let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(before.count == 5)

        try FileManager.default.removeItem(atPath: daemon.library + "/a/gone.jpg")
        try FileManager.default.moveItem(atPath: daemon.library + "/a/old/move-me.jpg",
                                         toPath: daemon.library + "/b/moved.jpg")
        try daemon.add("a/edit.jpg", Photo.jpeg("After"))
        try daemon.add("b/fresh.jpg", Photo.jpeg("Fresh"))
        await #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before, "not watched, not seen yet")

        let rescan = try await daemon.photoctlJSON(["rescan"])
        #expect(rescan["scanned"] as? Int == 5)
        #expect(rescan["changed"] as? Int == 4)  // one each: removed, moved, updated, inserted
        let after = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(Set(after.keys) == ["a/keep.jpg", "a/edit.jpg", "b/moved.jpg", "b/fresh.jpg", "b/placeholder.jpg"])
        #expect(after["a/keep.jpg"] == before["a/keep.jpg"])
        #expect(after["a/edit.jpg"] == before["a/edit.jpg"])
        #expect(after["b/moved.jpg"] == before["a/old/move-me.jpg"])
        #expect(!before.values.contains(after["b/fresh.jpg"] ?? ""))
        await #expect(try daemon.photoctlJSON(["groups"]).groupCounts == ["Keep": 2, "After": 1, "Moved": 1, "Fresh": 1])

        let again = try await daemon.photoctlJSON(["rescan"])
        #expect(again["changed"] as? Int == 0)
    }

    @Test func aRestartKeepsIdsAndFindsWhatChangedWhileDown() async throws {
        let daemon = try DaemonHarness()
        for n in 0..<20 { try daemon.add("p\(n).jpg", Photo.jpeg("Group \(n % 3)")) }
        try await daemon.start()
        let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let token = try await daemon.photoctlJSON(["status"])["token"] as? Int ?? -1
        await #expect(daemon.stop() == 0, "SIGTERM is a clean exit")

        try FileManager.default.moveItem(atPath: daemon.library + "/p0.jpg", toPath: daemon.library + "/renamed.jpg")
        try FileManager.default.removeItem(atPath: daemon.library + "/p1.jpg")
        try await daemon.start()
        let after = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(after.count == 19)
        #expect(after["renamed.jpg"] == before["p0.jpg"])
        #expect(after["p5.jpg"] == before["p5.jpg"])
        let status = try await daemon.photoctlJSON(["status"])
        #expect((status["token"] as? Int ?? 0) > token, "changes made while down get new tokens")
        #expect(status["assets"] as? Int == 19)
        #expect(await daemon.logContains("18 unchanged"), "unchanged files are not read again")

        // A subscriber resuming from the token it had before the stop hears exactly this.
        let resumed = try await ChangeRecorder.start(socket: daemon.socket, since: token)
        try await resumed.wait { $0.moved.count == 1 && $0.removed.count == 1 }
        #expect(resumed.moved.map(\.id) == [before["p0.jpg"]].compactMap { $0 })
        #expect(resumed.moved.first?.to == daemon.library + "/renamed.jpg")
        #expect(resumed.removed == [before["p1.jpg"]].compactMap { $0 })
        #expect(resumed.inserted.isEmpty && resumed.updated.isEmpty)
    }

    @Test func aMissingRootKeepsItsAssetsAndDegrades() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        try FileManager.default.moveItem(atPath: daemon.library, toPath: daemon.dir.file("elsewhere"))
        _ = try await daemon.photoctlJSON(["rescan"])
        let status = try await daemon.photoctlJSON(["status"])
        #expect(status["state"] as? String == "degraded")
        #expect(status["assets"] as? Int == 1)
        let roots = status["roots"] as? [[String: Any]]
        #expect(roots?.first?["state"] as? String == "missing")
        #expect((status["problems"] as? [String])?.first?.contains(daemon.library) == true)
        try FileManager.default.moveItem(atPath: daemon.dir.file("elsewhere"), toPath: daemon.library)
        _ = try await daemon.photoctlJSON(["rescan"])
        await #expect(try daemon.photoctlJSON(["status"])["state"] as? String == "ready")
    }
}

/// Grouping rules changed in the config re-file the index at the next start.
@Suite(.serialized) struct RegroupTests {
    @Test func turningOnCaseInsensitiveGroupingMergesSpellings() async throws {
        let first = try DaemonHarness()
        try first.add("a.jpg", Photo.jpeg("Beach"))
        try first.add("b.jpg", Photo.jpeg("Beach"))
        try first.add("c.jpg", Photo.jpeg("beach"))
        try await first.start()
        let ids = try await first.photoctlJSON(["list"]).ids(relativeTo: first.library)
        await #expect(try first.photoctlJSON(["groups"]).groupCounts == ["Beach": 2, "beach": 1])
        await #expect(first.stop() == 0)

        let config = try first.dir.write("ci.toml", Array("[groups]\ncase_insensitive = true\n".utf8))
        let second = try DaemonHarness(reusing: first, arguments: ["--config", config])
        try await second.start()
        await #expect(try second.photoctlJSON(["groups"]).groupCounts == ["Beach": 3])
        await #expect(try second.photoctlJSON(["list", "beach"]).ids(relativeTo: second.library) == ids)
        #expect(await second.logContains("re-filed 2 assets"), "the two \"Beach\" photos change key; \"beach\" keeps its own")
    }
}
