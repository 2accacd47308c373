import FileSystem

/// What tells one file system from another where device numbers cannot: a different USB stick
/// in the same port, or another card in the same reader, gets the same device number and the
/// same mount point as the one before it. Either part may be unknown (empty, 0).
struct FileSystemSerial: Sendable, Equatable {
    /// The file system's UUID (or a FAT volume's serial) as udev names it in /dev/disk/by-uuid.
    var uuid: String = ""
    /// `statfs`'s `f_fsid`, kept only for the file systems that derive it from their own UUID
    /// or serial rather than from the device number.
    var fsID: UInt64 = 0

    /// The file system types whose `f_fsid` comes from the file system itself.
    static let ownFsIDTypes: Set<String> = ["ext2", "ext3", "ext4", "btrfs", "ntfs3"]

    /// Where udev lists file systems by UUID.
    static let byUUID = PathBytes("/dev/disk/by-uuid")

    /// True when both sides know a part and it differs: another file system, whatever its
    /// device number says; false when a known part matches; nil when nothing can be compared.
    func differs(from other: FileSystemSerial) -> Bool? {
        if !uuid.isEmpty, !other.uuid.isEmpty { return uuid != other.uuid }
        if fsID != 0, other.fsID != 0 { return fsID != other.fsID }
        return nil
    }

    /// The serial of the file system holding `folder`, mounted as `mount` says.
    static func read(folder: PathBytes, mount: MountEntry?) -> FileSystemSerial {
        var serial = FileSystemSerial()
        if let mount, ownFsIDTypes.contains(mount.fsType) { serial.fsID = FileSystem.fileSystemID(folder) ?? 0 }
        if let mount, mount.source.hasPrefix("/dev/"),
           let device = FileSystem.canonicalPath(PathBytes(mount.source)),
           let entry = FileSystem.linkTargets(in: byUUID).first(where: { $0.target == device }) {
            serial.uuid = String(decoding: entry.name, as: UTF8.self)
        }
        return serial
    }

    /// "UUID 1234-ABCD", or the fsid, for problems and logs; nil when nothing is known.
    var display: String? {
        if !uuid.isEmpty { return "UUID \(uuid)" }
        if fsID != 0 { return "file system id \(String(fsID, radix: 16))" }
        return nil
    }
}
