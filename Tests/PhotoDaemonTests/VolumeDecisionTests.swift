import FileSystem
import Store
import Testing
@testable import PhotoDaemon

/// The decision whether a root's photos can be reconciled, from made-up mount tables.
@Suite struct VolumeDecisionTests {
    static let rootLine = "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw"
    static let drive = "95 22 8:17 / /media/card rw,nosuid shared:50 - ext4 /dev/sdb1 rw"

    static func table(_ lines: String...) -> MountTable {
        MountTable.parse(Array(lines.joined(separator: "\n").utf8))
    }

    static let card = PathBytes("/media/card")
    /// The card's photos as recorded when they were indexed: device 8:17, mount 95.
    static let recorded = StoredVolume(
        folder: card, root: "/media/card", device: 8 << 8 | 17, mountID: 95, major: 8, minor: 17, fsType: "ext4",
        source: "/dev/sdb1", mountPoint: card)

    static func decision(recorded: StoredVolume? = recorded, photos: Bool = true,
                         photoDevices: Set<UInt64> = []) -> VolumeDecision {
        VolumeDecision(folder: card, root: "/media/card", recorded: recorded, photoDevices: photoDevices, hasPhotos: photos)
    }

    @Test func parsesMountinfoWithEscapesAndOptionalFields() {
        let table = MountTable.parse(Array("""
            22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
            96 22 0:51 / /media/my\\040card rw master:3 propagate_from:1 - vfat /dev/sdc1 rw
            garbage line
            97 22 0:52 /sub /srv/bind rw - tmpfs tmpfs rw

            """.utf8))
        #expect(table.entries.count == 3)
        #expect(table.entries[1] == MountEntry(mountID: 96, parentID: 22, major: 0, minor: 51,
                                               mountPoint: PathBytes("/media/my card"), fsType: "vfat", source: "/dev/sdc1"))
        #expect(table.covering(PathBytes("/media/my card/DCIM"))?.mountID == 96)
        #expect(table.covering(PathBytes("/media/other"))?.mountID == 22)
        #expect(table.mounts(inside: PathBytes("/media")).map(\.mountID) == [96])
    }

    @Test func theLastMountAtAPlaceIsTheOneOnTop() {
        let table = Self.table(Self.rootLine, Self.drive, "99 95 0:60 / /media/card rw - tmpfs tmpfs rw")
        #expect(table.covering(Self.card)?.mountID == 99)
    }

    @Test func theRecordedFileSystemIsPresent() {
        let presence = Self.decision().decide(table: Self.table(Self.rootLine, Self.drive), device: 8 << 8 | 17)
        #expect(presence == .present(Self.recorded, remounted: false))
    }

    @Test func anEmptyMountPointIsOffline() {
        // The card is unmounted and its folder is left, on the root file system (8:2).
        let presence = Self.decision().decide(table: Self.table(Self.rootLine), device: 8 << 8 | 2)
        guard case .offline(let reason) = presence else {
            Issue.record("expected offline, got \(presence)")
            return
        }
        #expect(reason.contains("/dev/sdb1 (ext4) at /media/card is not mounted"))
    }

    @Test func aFolderGoneWithItsMountIsOfflineAndOneGoneFromAMountedFileSystemIsMissing() {
        guard case .offline = Self.decision().decide(table: Self.table(Self.rootLine), device: nil) else {
            Issue.record("a mount point removed with its drive is offline")
            return
        }
        #expect(Self.decision().decide(table: Self.table(Self.rootLine, Self.drive), device: nil) == .missing)
        #expect(Self.decision(recorded: nil).decide(table: Self.table(Self.rootLine), device: nil) == .missing)
    }

    @Test func theSameDriveRemountedIsPresentAndMustBeWatchedAgain() {
        let again = "120 22 8:17 / /media/card rw - ext4 /dev/sdb1 rw"
        let presence = Self.decision().decide(table: Self.table(Self.rootLine, again), device: 8 << 8 | 17)
        var now = Self.recorded
        now.mountID = 120
        #expect(presence == .present(now, remounted: true))
    }

    @Test func theSameDriveUnderOtherDeviceNumbersAtItsPlaceIsPresent() {
        let replugged = "121 22 8:33 / /media/card rw - ext4 /dev/sdc1 rw"
        guard case .present(let now, remounted: true) = Self.decision().decide(
            table: Self.table(Self.rootLine, replugged), device: 8 << 8 | 33) else {
            Issue.record("the same type at the same place is the drive back, whatever its device")
            return
        }
        #expect(now.device == 8 << 8 | 33 && now.mountID == 121)
    }

    @Test func anotherDriveMountedOverTheFolderIsOffline() {
        let other = "122 22 8:49 / /media/card rw - vfat /dev/sdd1 rw"
        guard case .offline = Self.decision().decide(table: Self.table(Self.rootLine, other), device: 8 << 8 | 49) else {
            Issue.record("another file system in the photos' place is not theirs")
            return
        }
    }

    @Test func anotherDriveAtTheSameDeviceNumberAndPlaceIsOfflineWhenItsUUIDOrIDDiffers() {
        // Another stick in the same port: the same 8:17, the same mount point and type.
        let table = Self.table(Self.rootLine, "130 22 8:17 / /media/card rw - ext4 /dev/sdb1 rw")
        var recorded = Self.recorded
        recorded.uuid = "1111-AAAA"
        let other = FileSystemSerial(uuid: "2222-BBBB")
        guard case .offline(let reason) = Self.decision(recorded: recorded).decide(
            table: table, device: 8 << 8 | 17, serial: other) else {
            Issue.record("a drive with another UUID is not the photos' drive")
            return
        }
        #expect(reason.contains("another drive (UUID 2222-BBBB)") && reason.contains("UUID 1111-AAAA"), "\(reason)")
        guard case .present = Self.decision(recorded: recorded).decide(
            table: table, device: 8 << 8 | 17, serial: FileSystemSerial(uuid: "1111-AAAA")) else {
            Issue.record("the same UUID is the same drive")
            return
        }

        var byID = Self.recorded
        byID.fsID = 0x1234
        guard case .offline = Self.decision(recorded: byID).decide(
            table: table, device: 8 << 8 | 17, serial: FileSystemSerial(fsID: 0x5678)) else {
            Issue.record("without udev, an ext4's own id tells the drives apart")
            return
        }
        // Nothing known on one side (an index from before, no udev): the device decides, as before.
        guard case .present = Self.decision().decide(table: table, device: 8 << 8 | 17, serial: other) else {
            Issue.record("nothing to compare: the device number decides")
            return
        }
    }

    @Test func theSameUUIDUnderAnotherTypeOrDeviceAtItsPlaceIsTheDriveBack() {
        var recorded = Self.recorded
        recorded.uuid = "1111-AAAA"
        // The same card read by another reader, whose driver names the type differently.
        let table = Self.table(Self.rootLine, "131 22 8:65 / /media/card rw - exfat /dev/sde1 rw")
        guard case .present(let now, remounted: true) = Self.decision(recorded: recorded).decide(
            table: table, device: 8 << 8 | 65, serial: FileSystemSerial(uuid: "1111-AAAA")) else {
            Issue.record("the same UUID at the same place is the drive back")
            return
        }
        #expect(now.uuid == "1111-AAAA" && now.fsType == "exfat")
    }

    @Test func aFolderWithoutPhotosTakesTheFileSystemItIsOn() {
        let presence = Self.decision(photos: false).decide(table: Self.table(Self.rootLine), device: 8 << 8 | 2)
        guard case .new(let now) = presence else {
            Issue.record("nothing to keep: expected new, got \(presence)")
            return
        }
        #expect(now.device == 8 << 8 | 2 && now.mountPoint == PathBytes("/") && now.source == "/dev/sda2")
    }

    @Test func nothingRecordedIsNewUnlessThePhotosWereReadOnAnotherDevice() {
        let table = Self.table(Self.rootLine)
        guard case .new = Self.decision(recorded: nil).decide(table: table, device: 8 << 8 | 2) else {
            Issue.record("a root seen for the first time is recorded")
            return
        }
        guard case .new = Self.decision(recorded: nil, photoDevices: [8 << 8 | 2]).decide(table: table, device: 8 << 8 | 2)
        else {
            Issue.record("photos indexed on the folder's device: recorded")
            return
        }
        // An index from before volumes were recorded, started with the card away.
        guard case .offline = Self.decision(recorded: nil, photoDevices: [8 << 8 | 17]).decide(
            table: table, device: 8 << 8 | 2) else {
            Issue.record("photos read on another device than the folder's: offline")
            return
        }
    }

    @Test func withoutAMountTableTheDeviceDecides() {
        let none = MountTable(entries: [])
        #expect(Self.decision().decide(table: none, device: nil) == .missing)
        guard case .present = Self.decision().decide(table: none, device: 8 << 8 | 17),
              case .offline = Self.decision().decide(table: none, device: 8 << 8 | 2) else {
            Issue.record("device numbers alone decide without /proc")
            return
        }
    }

    @Test func deviceNumbersReadAsLsWritesThem() {
        #expect(VolumeDecision.deviceText(8 << 8 | 17) == "8:17")
        #expect(VolumeDecision.deviceText(259 << 8 | 3) == "259:3")
    }
}
