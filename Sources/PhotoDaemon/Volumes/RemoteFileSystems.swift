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

    /// Network file systems whose folder times come from the server's own disk, moving whenever
    /// an entry is made, removed or renamed: a poll pass lists an unchanged folder by name.
    /// Left out: davfs (WebDAV servers often give no folder times), Coda and NCP (caching and
    /// age), and every FUSE daemon not known to pass the times through (rclone's folders in a
    /// bucket have none of their own).
    static let trustedFolderTimes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "ceph", "glusterfs", "afs", "openafs", "lustre",
        "gfs2", "ocfs2", "beegfs", "orangefs", "gpfs", "pvfs2", "fuse.sshfs",
    ]

    /// Whether a folder's time on the file system `fsType`, mounted from `source`, says when
    /// its entries last changed. A plain FUSE mount of an absolute folder (bindfs, and other
    /// pass-through daemons) shows that folder's own times.
    static func trustsFolderTimes(_ fsType: String, source: String) -> Bool {
        trustedFolderTimes.contains(fsType) || ((fsType == "fuse" || fsType == "fuse.bindfs") && source.hasPrefix("/"))
    }

    /// Whether folders on a file system of type `fsType` are polled. Every FUSE file system
    /// ("fuse", "fuse.*": sshfs, rclone, gvfs, bindfs...) is, as its daemon may serve changes
    /// made behind it; "fuseblk" (ntfs-3g, exfat-fuse on a local disk) is not: the disk has no
    /// other writer, so every change goes through the local kernel and raises its event.
    static func isPolled(_ fsType: String) -> Bool {
        network.contains(fsType) || fsType == "fuse" || fsType.hasPrefix("fuse.")
    }
}
