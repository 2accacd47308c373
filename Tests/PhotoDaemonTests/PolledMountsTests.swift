import FileSystem
import PhotoAPI
import Testing
@testable import PhotoDaemon

/// Which roots and mounts inside roots are polled, from made-up mount tables: what the FUSE
/// integration tests check on a real mount, here for every kind of file system.
@Suite struct PolledMountsTests {
    static func table(_ lines: String...) -> MountTable {
        MountTable.parse(Array(lines.joined(separator: "\n").utf8))
    }

    static let local = "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw"

    @Test func remoteAndStackedFileSystemsArePolledLocalOnesWatched() {
        for polled in ["nfs", "nfs4", "cifs", "smb3", "9p", "ceph", "glusterfs", "afs", "davfs", "virtiofs",
                       "fuse", "fuse.sshfs", "fuse.rclone", "fuse.gvfsd-fuse", "fuse.bindfs"] {
            #expect(RemoteFileSystems.isPolled(polled), "\(polled)")
        }
        for watched in ["ext4", "btrfs", "xfs", "tmpfs", "vfat", "exfat", "ntfs3", "fuseblk", "overlay", "zfs"] {
            #expect(!RemoteFileSystems.isPolled(watched), "\(watched)")
        }
    }

    @Test func aRemoteRootIsPolledWholeAndALocalRootOnlyWhereARemoteMountIsInside() {
        let mounts = PolledMounts(interval: 30)
        mounts.survey(paths: [("/srv/nas", PathBytes("/srv/nas")), ("/home/ann/Pictures", PathBytes("/home/ann/Pictures")),
                              ("/gone", nil)],
                      table: Self.table(
                        Self.local,
                        "40 22 0:40 / /srv/nas rw - nfs4 nas:/export rw",
                        "41 40 8:17 / /srv/nas/usb rw - ext4 /dev/sdb1 rw",
                        "42 22 0:42 / /home/ann/Pictures/phone rw - fuse.sshfs phone: rw",
                        "43 22 8:33 / /home/ann/Pictures/card rw - vfat /dev/sdc1 rw"))
        #expect(mounts.rootFolder("/srv/nas")?.fileSystem == "nfs4")
        #expect(mounts.rootFolder("/home/ann/Pictures")?.fileSystem == "ext4")
        #expect(mounts.rootFolder("/gone") == nil)
        // The NFS root's reconcile takes in the drive inside it; the sshfs mount is polled alone.
        #expect(mounts.polledTops.map(\.path) == [PathBytes("/home/ann/Pictures/phone"), PathBytes("/srv/nas")])
        #expect(mounts.mounts(inside: "/home/ann/Pictures").map(\.fileSystem).sorted() == ["fuse.sshfs", "vfat"])

        let nas = mounts.describe(Root(path: "/srv/nas", state: .watching, assets: 3), limited: false)
        #expect(nas.state == .polling && nas.pollInterval == 30 && nas.stalled == false && nas.fileSystem == "nfs4")
        #expect(nas.mounts == [RootMount(path: "/srv/nas/usb", fileSystem: "ext4")])
        #expect(mounts.setStalled(PathBytes("/home/ann/Pictures/phone"), true))
        #expect(!mounts.setStalled(PathBytes("/home/ann/Pictures/phone"), true), "no change")
        let pictures = mounts.describe(Root(path: "/home/ann/Pictures", state: .watching, assets: 5), limited: false)
        #expect(pictures.state == .watching && pictures.pollInterval == nil && pictures.stalled == nil)
        #expect(pictures.mounts?.first { $0.fileSystem == "fuse.sshfs" }?.stalled == true)
        #expect(mounts.describe(Root(path: "/srv/nas", state: .watching, assets: 3), limited: true).fileSystem == nil,
                "a limited app learns nothing of the mounts")
    }

    @Test func aRootsOwnIntervalIsAlsoItsMountsAndItsLastPassIsInStatus() {
        let mounts = PolledMounts(interval: 30, perRoot: ["/srv/nas": 120, "/srv/other": 5])
        #expect(mounts.shortestInterval == 5)
        mounts.survey(paths: [("/srv/nas", PathBytes("/srv/nas")), ("/home/ann/Pictures", PathBytes("/home/ann/Pictures"))],
                      table: Self.table(
                        Self.local,
                        "40 22 0:40 / /srv/nas rw - nfs4 nas:/export rw",
                        "41 40 0:41 / /srv/nas/cloud rw - fuse.rclone cloud: rw",
                        "42 22 0:42 / /home/ann/Pictures/phone rw - fuse.sshfs phone: rw"))
        let before = mounts.describe(Root(path: "/srv/nas", state: .watching, assets: 3), limited: false)
        #expect(before.pollInterval == 120 && before.lastPass == nil)
        #expect(before.mounts?.first?.pollInterval == 120, "a mount inside a root takes the root's interval")

        // 2024-03-01T12:00:00Z; 0.4216 s over 10,000 files, then one over budget.
        let ended: Int64 = 1_709_294_400_000_000_000
        mounts.record(PassCost(endedNanoseconds: ended, spent: .microseconds(421_600), files: 10_000, delayedWait: nil),
                      for: PathBytes("/srv/nas"))
        mounts.record(PassCost(endedNanoseconds: ended, spent: .seconds(9), files: nil, delayedWait: .milliseconds(36_000.5)),
                      for: PathBytes("/home/ann/Pictures/phone"))
        let nas = mounts.describe(Root(path: "/srv/nas", state: .watching, assets: 3), limited: false)
        #expect(nas.lastPass == PollPass(ended: "2024-03-01T12:00:00Z", seconds: 0.422, files: 10_000))
        #expect(nas.mounts?.first?.lastPass == nil, "the root's pass takes the mount in")
        let pictures = mounts.describe(Root(path: "/home/ann/Pictures", state: .watching, assets: 5), limited: false)
        #expect(pictures.pollInterval == nil && pictures.lastPass == nil)
        #expect(pictures.mounts?.first?.pollInterval == 30)
        #expect(pictures.mounts?.first?.lastPass == PollPass(ended: "2024-03-01T12:00:00Z", seconds: 9, delayedInterval: 37),
                "a delayed wait is rounded up")
        #expect(mounts.describe(Root(path: "/srv/nas", state: .watching, assets: 3), limited: true).lastPass == nil)

        mounts.survey(paths: [("/home/ann/Pictures", PathBytes("/home/ann/Pictures"))], table: Self.table(Self.local))
        #expect(mounts.lastPass(PathBytes("/srv/nas")) == nil, "a folder no longer polled forgets its passes")
    }

    @Test func aProbeOfAFolderThatAnswersSaysSoAndHoldsNoThread() async {
        let probe = MountProbe()
        #expect(await probe.answers(PathBytes("/")) == true)
        #expect(await probe.answers(PathBytes("/")) == true, "the first probe's thread came back")
    }
}
