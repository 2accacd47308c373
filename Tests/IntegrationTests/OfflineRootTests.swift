import Foundation
import PhotoTestSupport
import Testing

/// A root on a drive that is unmounted and mounted again keeps every photo and id: offline
/// while the drive is away (its empty mount point is not taken for the root), reconciled when
/// it is back. Real ext4 images on loop devices; needs root.
@Suite(.serialized) struct OfflineRootTests {
    /// A daemon whose library folder is the mount point of a fresh drive holding `photos`.
    private static func daemonOnDrive(photos: [String]) async throws -> (DaemonHarness, LoopDrive) {
        let daemon = try DaemonHarness(settings: "poll_interval = 1\n")
        let drive = try await LoopDrive(image: daemon.dir.file("drive.img"))
        do {
            try await drive.mount(at: daemon.library)
            for (n, name) in photos.enumerated() { try daemon.add(name, Photo.jpeg("Trip \(n % 2)")) }
        } catch {
            await drive.detach()
            throw error
        }
        return (daemon, drive)
    }

    private static func rootState(_ daemon: DaemonHarness) async -> String? {
        let status = try? await daemon.photoctlJSON(["status"])
        return (status?["roots"] as? [[String: Any]])?.first?["state"] as? String
    }

    /// Runs `body` with `daemonOnDrive`, then stops the daemon and detaches the drive whether
    /// `body` returned or threw.
    private static func withDaemonOnDrive(photos: [String], _ body: (DaemonHarness, LoopDrive) async throws -> Void) async throws {
        let (daemon, drive) = try await daemonOnDrive(photos: photos)
        try await withClosing(drive, close: { drive in
            await daemon.stop()
            await drive.detach()
        }) { drive in try await body(daemon, drive) }
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveAwayAtStartIsOfflineAndComesBackWithItsIdsAndWhatChanged() async throws {
        let photos = (0..<5).map { "DCIM/p\($0).jpg" }
        try await Self.withDaemonOnDrive(photos: photos) { daemon, drive in
            try await daemon.start()
            let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(before.count == 5)
            await #expect(daemon.stop() == 0)

            try await drive.unmount(daemon.library)
            try await daemon.start()
            let status = try await daemon.photoctlJSON(["status"])
            #expect(status["assets"] as? Int == 5, "the empty mount point is not the library")
            await #expect(Self.rootState(daemon) == "offline")
            let problem = (status["problems"] as? [String])?.first ?? ""
            #expect(problem.contains("offline") && problem.contains(drive.device), "names the drive: \(problem)")
            let away = try await daemon.photoctlJSON(["list"])
            #expect(away.ids(relativeTo: daemon.library) == before)
            #expect(away.assets.allSatisfy { $0["offline"] as? Bool == true })

            // Changed elsewhere while away: one photo added, one deleted.
            let elsewhere = daemon.dir.file("elsewhere")
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            try await drive.mount(at: elsewhere)
            try Data(Photo.jpeg("New")).write(to: URL(fileURLWithPath: elsewhere + "/DCIM/new.jpg"))
            try FileManager.default.removeItem(atPath: elsewhere + "/DCIM/p4.jpg")
            try await drive.unmount(elsewhere)
            await #expect(Self.rootState(daemon) == "offline")

            // Back while photod runs.
            try await drive.mount(at: daemon.library)
            #expect(await eventually(within: 30) { await Self.rootState(daemon) == "watching" }, "\(daemon.log)")
            let after = try await daemon.photoctlJSON(["list"])
            let ids = after.ids(relativeTo: daemon.library)
            #expect(Set(ids.keys) == ["DCIM/p0.jpg", "DCIM/p1.jpg", "DCIM/p2.jpg", "DCIM/p3.jpg", "DCIM/new.jpg"])
            for name in photos.prefix(4) { #expect(ids[name] == before[name], "\(name) keeps its id") }
            #expect(!before.values.contains(ids["DCIM/new.jpg"] ?? ""))
            #expect(after.assets.allSatisfy { $0["offline"] == nil })
            await #expect(try daemon.photoctlJSON(["status"])["state"] as? String == "ready")

            // Watched on the drive now, not on the folder beneath it: a new photo is seen live.
            try daemon.add("DCIM/live.jpg", Photo.jpeg("Live"))
            #expect(await eventually(within: 30) {
                (try? await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["DCIM/live.jpg"]) != nil
            })
        }
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func anotherDriveAtTheSameDeviceNumberAndPlaceIsNotTakenForTheRoots() async throws {
        let photos = (0..<3).map { "DCIM/p\($0).jpg" }
        try await Self.withDaemonOnDrive(photos: photos) { daemon, drive in
            try await daemon.start()
            let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(before.count == 3)

            // Another stick in the same port: the same loop device, so the same device number
            // and mount point, with a file system of its own holding a photo of its own.
            try await drive.unmount(daemon.library)
            #expect(await eventually(within: 30) { await Self.rootState(daemon) == "offline" }, "\(daemon.log)")
            try await drive.reformat()
            try await drive.mount(at: daemon.library)
            try daemon.add("DCIM/other.jpg", Photo.jpeg("Other"))
            // Several polls of the mount table (poll_interval = 1): the root stays offline.
            try await Task.sleep(for: .seconds(4))
            await #expect(Self.rootState(daemon) == "offline", "\(daemon.log)")
            let status = try await daemon.photoctlJSON(["status"])
            let problem = (status["problems"] as? [String])?.first ?? ""
            #expect(problem.contains("another drive"), "\(problem)")
            #expect(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)

            // And when photod starts with the other drive there.
            await #expect(daemon.stop() == 0)
            try await daemon.start()
            await #expect(Self.rootState(daemon) == "offline")
            #expect(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)
        }
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveUnmountedWhileRunningWithItsFolderLeftIsOfflineNotEmptied() async throws {
        let photos = (0..<4).map { "p\($0).jpg" }
        try await Self.withDaemonOnDrive(photos: photos) { daemon, drive in
            try await daemon.start()
            let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(before.count == 4)

            try await drive.unmount(daemon.library)
            #expect(await eventually(within: 30) { await Self.rootState(daemon) == "offline" }, "\(daemon.log)")
            // Past a few polls (every second), which used to take the empty folder for the root.
            try await Task.sleep(for: .milliseconds(3500))
            await #expect(Self.rootState(daemon) == "offline")
            await #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)
            // A rescan of everything leaves an offline root alone.
            _ = try await daemon.photoctlJSON(["rescan"])
            await #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 4)

            try await drive.mount(at: daemon.library)
            #expect(await eventually(within: 30) { await Self.rootState(daemon) == "watching" }, "\(daemon.log)")
            await #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library) == before)
            try daemon.add("later.jpg", Photo.jpeg("Later"))
            #expect(await eventually(within: 30) {
                (try? await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["later.jpg"]) != nil
            })
        }
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func aDriveMountedInsideARootGoesOfflineAndComesBackWithItsIds() async throws {
        let daemon = try DaemonHarness(settings: "poll_interval = 1\n")
        try daemon.add("home.jpg", Photo.jpeg("Home"))
        let card = daemon.library + "/card"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        let drive = try await LoopDrive(image: daemon.dir.file("drive.img"))
        try await withClosing(drive, close: { drive in
            await daemon.stop()
            await drive.detach()
        }) { _ in
            try await drive.mount(at: card)
            for n in 0..<3 { try daemon.add("card/DCIM/c\(n).jpg", Photo.jpeg("Card \(n)")) }
            try await daemon.start()
            let before = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
            #expect(before.count == 4)

            // Its IN_UNMOUNT is dropped (the parent folder is watched): the mount table tells.
            try await drive.unmount(card)
            #expect(await eventually(within: 30) {
                let problems = (try? await daemon.photoctlJSON(["status"]))?["problems"] as? [String] ?? []
                return problems.contains { $0.contains(card) && $0.contains("offline") }
            }, "\(daemon.log)")
            // A rescan used to take the empty folder for the drive's photos deleted.
            _ = try await daemon.photoctlJSON(["rescan"])
            let away = try await daemon.photoctlJSON(["list"])
            #expect(away.ids(relativeTo: daemon.library) == before)
            for asset in away.assets {
                let onCard = (asset["path"] as? String ?? "").hasPrefix(card + "/")
                #expect((asset["offline"] as? Bool) == (onCard ? true : nil), "\(asset["path"] ?? "")")
            }
            await #expect(Self.rootState(daemon) == "watching", "the root itself is there")

            try await drive.mount(at: card)
            #expect(await eventually(within: 30) {
                let status = try? await daemon.photoctlJSON(["status"])
                return (status?["problems"] as? [String])?.isEmpty == true
            }, "\(daemon.log)")
            let back = try await daemon.photoctlJSON(["list"])
            #expect(back.ids(relativeTo: daemon.library) == before)
            #expect(back.assets.allSatisfy { $0["offline"] == nil })
            // Watched on the drive again.
            try daemon.add("card/DCIM/live.jpg", Photo.jpeg("Live"))
            #expect(await eventually(within: 30) {
                (try? await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["card/DCIM/live.jpg"]) != nil
            })
        }
    }

    @Test(.enabled(if: LoopDrive.canMount, "mounting a drive needs root, mkfs.ext4, losetup and loop devices"))
    func forgetRemovesAnOfflineRootsPhotosOnlyWhenTheOwnerSaysSo() async throws {
        try await Self.withDaemonOnDrive(photos: ["a.jpg", "b.jpg"]) { daemon, drive in
            try await daemon.start()
            await #expect(daemon.stop() == 0)
            try await drive.unmount(daemon.library)
            try await daemon.start()
            await #expect(Self.rootState(daemon) == "offline")
            await #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 2)

            let forget = try await daemon.photoctl(["forget", daemon.library])
            #expect(forget.status == 0, "\(forget.stderr)")
            let status = try await daemon.photoctlJSON(["status"])
            #expect(status["assets"] as? Int == 0)
            await #expect(Self.rootState(daemon) == "watching")
            #expect((status["problems"] as? [String])?.isEmpty == true)
            // The empty folder is the root now: a photo put there is indexed.
            try daemon.add("c.jpg", Photo.jpeg("C"))
            #expect(await eventually(within: 30) {
                (try? await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["c.jpg"]) != nil
            })
        }
    }
}
