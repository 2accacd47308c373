import Foundation
import PhotoTestSupport
import Testing

/// A root on a drive that is unmounted and mounted again keeps every photo and id: offline
/// while the drive is away (its empty mount point is not taken for the root), reconciled when
/// it is back. Real ext4 images on loop devices; needs root.
@Suite(.serialized) struct OfflineRootTests {
    /// A daemon whose library folder is the mount point of a fresh drive holding `photos`.
    private static func daemonOnDrive(photos: [String]) throws -> (DaemonHarness, LoopDrive) {
        let daemon = try DaemonHarness(settings: "poll_interval = 1\n")
        let drive = try LoopDrive(image: daemon.dir.file("drive.img"))
        do {
            try drive.mount(at: daemon.library)
            for (n, name) in photos.enumerated() { try daemon.add(name, Photo.jpeg("Trip \(n % 2)")) }
        } catch {
            drive.detach()
            throw error
        }
        return (daemon, drive)
    }

    private static func rootState(_ daemon: DaemonHarness) -> String? {
        let status = try? daemon.photoctlJSON(["status"])
        return (status?["roots"] as? [[String: Any]])?.first?["state"] as? String
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveAwayAtStartIsOfflineAndComesBackWithItsIdsAndWhatChanged() throws {
        let photos = (0..<5).map { "DCIM/p\($0).jpg" }
        let (daemon, drive) = try Self.daemonOnDrive(photos: photos)
        defer {
            daemon.stop()
            drive.detach()
        }
        try daemon.start()
        let before = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(before.count == 5)
        #expect(daemon.stop() == 0)

        try drive.unmount(daemon.library)
        try daemon.start()
        let status = try daemon.photoctlJSON(["status"])
        #expect(status["assets"] as? Int == 5, "the empty mount point is not the library")
        #expect(Self.rootState(daemon) == "offline")
        let problem = (status["problems"] as? [String])?.first ?? ""
        #expect(problem.contains("offline") && problem.contains(drive.device), "names the drive: \(problem)")
        let away = try daemon.photoctlJSON(["list"])
        #expect(away.ids(relativeTo: daemon.library) == before)
        #expect(away.assets.allSatisfy { $0["offline"] as? Bool == true })

        // Changed elsewhere while away: one photo added, one deleted.
        let elsewhere = daemon.dir.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try drive.mount(at: elsewhere)
        try Data(Photo.jpeg("New")).write(to: URL(fileURLWithPath: elsewhere + "/DCIM/new.jpg"))
        try FileManager.default.removeItem(atPath: elsewhere + "/DCIM/p4.jpg")
        try drive.unmount(elsewhere)
        #expect(Self.rootState(daemon) == "offline")

        // Back while photod runs.
        try drive.mount(at: daemon.library)
        #expect(eventually(timeout: 30) { Self.rootState(daemon) == "watching" }, "\(daemon.log)")
        let after = try daemon.photoctlJSON(["list"])
        let ids = after.ids(relativeTo: daemon.library)
        #expect(Set(ids.keys) == ["DCIM/p0.jpg", "DCIM/p1.jpg", "DCIM/p2.jpg", "DCIM/p3.jpg", "DCIM/new.jpg"])
        for name in photos.prefix(4) { #expect(ids[name] == before[name], "\(name) keeps its id") }
        #expect(!before.values.contains(ids["DCIM/new.jpg"] ?? ""))
        #expect(after.assets.allSatisfy { $0["offline"] == nil })
        #expect(try daemon.photoctlJSON(["status"])["state"] as? String == "ready")

        // Watched on the drive now, not on the folder beneath it: a new photo is seen live.
        try daemon.add("DCIM/live.jpg", Photo.jpeg("Live"))
        #expect(eventually(timeout: 30) {
            (try? daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["DCIM/live.jpg"]) != nil
        })
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveUnmountedWhileRunningWithItsFolderLeftIsOfflineNotEmptied() throws {
        let photos = (0..<4).map { "p\($0).jpg" }
        let (daemon, drive) = try Self.daemonOnDrive(photos: photos)
        defer {
            daemon.stop()
            drive.detach()
        }
        try daemon.start()
        let before = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(before.count == 4)

        try drive.unmount(daemon.library)
        #expect(eventually(timeout: 30) { Self.rootState(daemon) == "offline" }, "\(daemon.log)")
        // Past a few polls (every second), which used to take the empty folder for the root.
        Thread.sleep(forTimeInterval: 3.5)
        #expect(Self.rootState(daemon) == "offline")
        #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)
        // A rescan of everything leaves an offline root alone.
        _ = try daemon.photoctlJSON(["rescan"])
        #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 4)

        try drive.mount(at: daemon.library)
        #expect(eventually(timeout: 30) { Self.rootState(daemon) == "watching" }, "\(daemon.log)")
        #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)
        try daemon.add("later.jpg", Photo.jpeg("Later"))
        #expect(eventually(timeout: 30) {
            (try? daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["later.jpg"]) != nil
        })
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveMountedInsideARootGoesOfflineAndComesBackWithItsIds() throws {
        let daemon = try DaemonHarness(settings: "poll_interval = 1\n")
        try daemon.add("home.jpg", Photo.jpeg("Home"))
        let card = daemon.library + "/card"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        let drive = try LoopDrive(image: daemon.dir.file("drive.img"))
        defer {
            daemon.stop()
            drive.detach()
        }
        try drive.mount(at: card)
        for n in 0..<3 { try daemon.add("card/DCIM/c\(n).jpg", Photo.jpeg("Card \(n)")) }
        try daemon.start()
        let before = try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(before.count == 4)

        // Its IN_UNMOUNT is dropped (the parent folder is watched): the mount table tells.
        try drive.unmount(card)
        #expect(eventually(timeout: 30) {
            let problems = (try? daemon.photoctlJSON(["status"]))?["problems"] as? [String] ?? []
            return problems.contains { $0.contains(card) && $0.contains("offline") }
        }, "\(daemon.log)")
        // A rescan used to take the empty folder for the drive's photos deleted.
        _ = try daemon.photoctlJSON(["rescan"])
        let away = try daemon.photoctlJSON(["list"])
        #expect(away.ids(relativeTo: daemon.library) == before)
        for asset in away.assets {
            let onCard = (asset["path"] as? String ?? "").hasPrefix(card + "/")
            #expect((asset["offline"] as? Bool) == (onCard ? true : nil), "\(asset["path"] ?? "")")
        }
        #expect(Self.rootState(daemon) == "watching", "the root itself is there")

        try drive.mount(at: card)
        #expect(eventually(timeout: 30) {
            let status = try? daemon.photoctlJSON(["status"])
            return (status?["problems"] as? [String])?.isEmpty == true
        }, "\(daemon.log)")
        let back = try daemon.photoctlJSON(["list"])
        #expect(back.ids(relativeTo: daemon.library) == before)
        #expect(back.assets.allSatisfy { $0["offline"] == nil })
        // Watched on the drive again.
        try daemon.add("card/DCIM/live.jpg", Photo.jpeg("Live"))
        #expect(eventually(timeout: 30) {
            (try? daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["card/DCIM/live.jpg"]) != nil
        })
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func forgetRemovesAnOfflineRootsPhotosOnlyWhenTheOwnerSaysSo() throws {
        let (daemon, drive) = try Self.daemonOnDrive(photos: ["a.jpg", "b.jpg"])
        defer {
            daemon.stop()
            drive.detach()
        }
        try daemon.start()
        #expect(daemon.stop() == 0)
        try drive.unmount(daemon.library)
        try daemon.start()
        #expect(Self.rootState(daemon) == "offline")
        #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 2)

        let forget = try daemon.photoctl(["forget", daemon.library])
        #expect(forget.status == 0, "\(forget.stderr)")
        let status = try daemon.photoctlJSON(["status"])
        #expect(status["assets"] as? Int == 0)
        #expect(Self.rootState(daemon) == "watching")
        #expect((status["problems"] as? [String])?.isEmpty == true)
        // The empty folder is the root now: a photo put there is indexed.
        try daemon.add("c.jpg", Photo.jpeg("C"))
        #expect(eventually(timeout: 30) {
            (try? daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["c.jpg"]) != nil
        })
    }
}
