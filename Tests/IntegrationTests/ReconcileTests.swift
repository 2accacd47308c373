import Foundation
import PhotoTestSupport
import Testing

/// Start-up and Rescan reconcile the index with the disk, keeping ids.
@Suite(.serialized) struct ReconcileTests {
    @Test func rescanFindsEveryKindOfChangeAndKeepsIds() throws {
        let daemon = try DaemonHarness()
        try daemon.add("keep.jpg", Photo.jpeg("Keep"))
        try daemon.add("edit.jpg", Photo.jpeg("Before"))
        try daemon.add("gone.jpg", Photo.jpeg("Gone"))
        try daemon.add("old/move-me.jpg", Photo.jpeg("Moved"))
        try daemon.start()
        let before = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(before.count == 4)

        try FileManager.default.removeItem(atPath: daemon.library + "/gone.jpg")
        try FileManager.default.createDirectory(atPath: daemon.library + "/new", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: daemon.library + "/old/move-me.jpg",
                                         toPath: daemon.library + "/new/moved.jpg")
        try daemon.add("edit.jpg", Photo.jpeg("After"))
        try daemon.add("fresh.jpg", Photo.jpeg("Fresh"))

        let rescan = try daemon.photoctlJSON(["rescan"])
        #expect(rescan["scanned"] as? Int == 4)
        #expect(rescan["changed"] as? Int == 4)  // one each: removed, moved, updated, inserted
        let after = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(Set(after.keys) == ["keep.jpg", "edit.jpg", "new/moved.jpg", "fresh.jpg"])
        #expect(after["keep.jpg"] == before["keep.jpg"])
        #expect(after["edit.jpg"] == before["edit.jpg"])
        #expect(after["new/moved.jpg"] == before["old/move-me.jpg"])
        #expect(!before.values.contains(after["fresh.jpg"] ?? ""))
        #expect(try daemon.photoctlJSON(["groups"]).groupCounts == ["Keep": 1, "After": 1, "Moved": 1, "Fresh": 1])

        let again = try daemon.photoctlJSON(["rescan"])
        #expect(again["changed"] as? Int == 0)
    }

    @Test func aRestartKeepsIdsAndFindsWhatChangedWhileDown() throws {
        let daemon = try DaemonHarness()
        for n in 0..<20 { try daemon.add("p\(n).jpg", Photo.jpeg("Group \(n % 3)")) }
        try daemon.start()
        let before = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let token = try daemon.photoctlJSON(["status"])["token"] as? Int ?? -1
        #expect(daemon.stop() == 0, "SIGTERM is a clean exit")

        try FileManager.default.moveItem(atPath: daemon.library + "/p0.jpg", toPath: daemon.library + "/renamed.jpg")
        try FileManager.default.removeItem(atPath: daemon.library + "/p1.jpg")
        try daemon.start()
        let after = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(after.count == 19)
        #expect(after["renamed.jpg"] == before["p0.jpg"])
        #expect(after["p5.jpg"] == before["p5.jpg"])
        let status = try daemon.photoctlJSON(["status"])
        #expect((status["token"] as? Int ?? 0) > token, "changes made while down get new tokens")
        #expect(status["assets"] as? Int == 19)
        #expect(daemon.log.contains("18 unchanged"), "unchanged files are not read again")
    }

    @Test func aMissingRootKeepsItsAssetsAndDegrades() throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try daemon.start()
        try FileManager.default.moveItem(atPath: daemon.library, toPath: daemon.dir.file("elsewhere"))
        _ = try daemon.photoctlJSON(["rescan"])
        let status = try daemon.photoctlJSON(["status"])
        #expect(status["state"] as? String == "degraded")
        #expect(status["assets"] as? Int == 1)
        let roots = status["roots"] as? [[String: Any]]
        #expect(roots?.first?["state"] as? String == "missing")
        #expect((status["problems"] as? [String])?.first?.contains(daemon.library) == true)
        try FileManager.default.moveItem(atPath: daemon.dir.file("elsewhere"), toPath: daemon.library)
        _ = try daemon.photoctlJSON(["rescan"])
        #expect(try daemon.photoctlJSON(["status"])["state"] as? String == "ready")
    }
}

/// Grouping rules changed in the config re-file the index at the next start.
@Suite(.serialized) struct RegroupTests {
    @Test func turningOnCaseInsensitiveGroupingMergesSpellings() throws {
        let first = try DaemonHarness()
        try first.add("a.jpg", Photo.jpeg("Beach"))
        try first.add("b.jpg", Photo.jpeg("Beach"))
        try first.add("c.jpg", Photo.jpeg("beach"))
        try first.start()
        let ids = try first.photoctlJSON(["list"]).ids(relativeTo: first.library)
        #expect(try first.photoctlJSON(["groups"]).groupCounts == ["Beach": 2, "beach": 1])
        #expect(first.stop() == 0)

        let config = try first.dir.write("ci.toml", Array("[groups]\ncase_insensitive = true\n".utf8))
        let second = try DaemonHarness(reusing: first, arguments: ["--config", config])
        try second.start()
        #expect(try second.photoctlJSON(["groups"]).groupCounts == ["Beach": 3])
        #expect(try second.photoctlJSON(["list", "beach"]).ids(relativeTo: second.library) == ids)
        #expect(second.log.contains("re-filed 2 assets"), "the two \"Beach\" photos change key; \"beach\" keeps its own")
    }
}
