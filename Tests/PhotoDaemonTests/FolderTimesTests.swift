#if canImport(Glibc)
import Glibc
#endif
import FileSystem
@testable import PhotoDaemon
import Testing

/// Which poll passes may list a folder by name: only settled folder times are kept, a folder
/// whose time or identity moved is listed in full, and every tenth pass stats every file.
struct FolderTimesTests {
    private static func folder(inode: UInt64 = 7, secondsAgo: Int64) -> FileInfo {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let mtime = (Int64(now.tv_sec) - secondsAgo) * 1_000_000_000
        return FileInfo(kind: .directory, device: 1, inode: inode, size: 4096, mtimeNs: mtime)
    }

    @Test func everyTenthPassAndTheFirstStatEveryFile() {
        let times = FolderTimes()
        let trusting = (1...21).map { _ in times.beginPass(fileSystemTrusted: true) }
        #expect(trusting.indices.filter { !trusting[$0] } == [0, 10, 20])
        #expect(!FolderTimes().beginPass(fileSystemTrusted: false))
    }

    @Test func onlySettledUnmovedFoldersAreListedByName() {
        let times = FolderTimes()
        let settled = Self.folder(secondsAgo: 60)
        let fresh = Self.folder(inode: 8, secondsAgo: 0)
        let a = PathBytes("/nas/a"), b = PathBytes("/nas/b")
        var check = times.check(trusting: times.beginPass(fileSystemTrusted: true))
        #expect(!check(a, settled) && !check(b, fresh), "nothing kept yet")
        check = times.check(trusting: times.beginPass(fileSystemTrusted: true))
        #expect(check(a, settled), "kept and unchanged")
        #expect(check(a, settled), "listed twice (two parts of a walk), counted once")
        #expect(!check(b, fresh), "changed too close to its listing to be trusted")
        #expect(times.lastPassUnchangedFolders == 1)
        var moved = settled
        moved.mtimeNs += 1
        #expect(!check(a, moved), "its time moved")
        var replaced = moved
        replaced.inode = 99
        check = times.check(trusting: times.beginPass(fileSystemTrusted: true))
        #expect(!check(a, replaced), "another folder at its path")
        #expect(check(a, replaced), "kept as it is now")
    }
}

/// Which file systems' folder times a poll pass trusts.
struct TrustedFolderTimesTests {
    @Test func networkFileSystemsAndPassThroughFUSEAreTrustedCloudMountsAreNot() {
        #expect(RemoteFileSystems.trustsFolderTimes("nfs4", source: "nas:/photos"))
        #expect(RemoteFileSystems.trustsFolderTimes("cifs", source: "//nas/photos"))
        #expect(RemoteFileSystems.trustsFolderTimes("fuse.sshfs", source: "me@nas:/photos"))
        #expect(RemoteFileSystems.trustsFolderTimes("fuse", source: "/srv/photos"), "bindfs shows its folder's times")
        #expect(!RemoteFileSystems.trustsFolderTimes("fuse", source: "somefs"), "an unknown FUSE daemon")
        #expect(!RemoteFileSystems.trustsFolderTimes("fuse.rclone", source: "gdrive:"))
        #expect(!RemoteFileSystems.trustsFolderTimes("davfs", source: "https://dav.example/"))
    }
}
