/// Which file systems inotify cannot see into: their files change without the local kernel
/// knowing (another NFS client, the SMB server, what a FUSE daemon serves from elsewhere), so
/// folders on them are polled. Decided from /proc/self/mountinfo's type string, which names the
/// FUSE daemon ("fuse.sshfs") where `statfs`'s `f_type` says only FUSE.
enum RemoteFileSystems {
    /// Network and cluster file systems: other machines write to them.
    static let network: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "9p", "virtiofs", "ceph", "glusterfs", "afs", "openafs",
        "coda", "davfs", "lustre", "gfs2", "ocfs2", "beegfs", "orangefs", "gpfs", "pvfs2",
    ]

    /// Whether folders on a file system of type `fsType` are polled. Every FUSE file system
    /// ("fuse", "fuse.*": sshfs, rclone, gvfs, bindfs...) is, as its daemon may serve changes
    /// made behind it; "fuseblk" (ntfs-3g, exfat-fuse on a local disk) is not: the disk has no
    /// other writer, so every change goes through the local kernel and raises its event.
    static func isPolled(_ fsType: String) -> Bool {
        network.contains(fsType) || fsType == "fuse" || fsType.hasPrefix("fuse.")
    }
}
