import FileSystem
import Store

/// Whether a root's photos can be compared with its folder now, and what to record.
enum VolumePresence: Sendable, Equatable {
    /// The folder is on the file system its photos were indexed on. `record` is what to keep
    /// (the mount's id may have changed); `remounted` when the mount is not the recorded one,
    /// so watches made on the old mount are dead and the folder must be watched again.
    case present(StoredVolume, remounted: Bool)
    /// Nothing to keep: `record` is the file system the folder is on now.
    case new(StoredVolume)
    /// The file system its photos are on is away, or the folder is now on another one (an
    /// empty mount point): the photos are kept and the folder is not reconciled.
    case offline(reason: String)
    /// The folder is gone from a file system that is there (deleted, moved): kept, as before.
    case missing
}

/// The decision, from what was recorded, the mount table now and the folder's `st_dev` now;
/// no I/O, so it is tested with made-up tables.
struct VolumeDecision: Sendable {
    /// The folder's canonical path (as recorded, when it cannot be resolved now).
    var folder: PathBytes
    /// The configured root it belongs to.
    var root: String
    /// What the index recorded for the folder, nil when nothing.
    var recorded: StoredVolume?
    /// Devices of the photos indexed under the folder, consulted only when nothing is
    /// recorded (an index from before volumes were recorded); empty when it holds none.
    var photoDevices: Set<UInt64>
    /// Whether the index holds photos under the folder.
    var hasPhotos: Bool

    /// Decides for `table`, the folder's `device` now (nil: it is not there or not a folder)
    /// and the `serial` of the file system it is on now.
    func decide(table: MountTable, device: UInt64?, serial: FileSystemSerial = FileSystemSerial()) -> VolumePresence {
        guard let device else {
            guard let recorded, let identity = recorded.identity, !table.entries.isEmpty,
                  !table.holds(identity)
            else { return .missing }
            return .offline(reason: "\(identity.display) is not mounted")
        }
        let mount = table.covering(folder)
        let now = StoredVolume(
            folder: folder, root: root, device: device, mountID: mount?.mountID ?? 0, major: mount?.major ?? 0,
            minor: mount?.minor ?? 0, fsType: mount?.fsType ?? "", source: mount?.source ?? "",
            mountPoint: mount?.mountPoint ?? PathBytes([]), uuid: serial.uuid, fsID: serial.fsID)
        guard let recorded else {
            // Photos indexed before volumes were recorded: the device they were read on says.
            if hasPhotos, !photoDevices.isEmpty, !photoDevices.contains(device) {
                return .offline(reason: """
                    its folder is on \(now.identity?.display ?? Self.deviceText(device)) now, not on the file system \
                    its photos were indexed on (device \(photoDevices.sorted().map(Self.deviceText).joined(separator: ", ")))
                    """)
            }
            return .new(now)
        }
        let another = recorded.serial.differs(from: serial)
        if recorded.device == device, another != true {
            let remounted = mount != nil && recorded.mountID != 0 && mount?.mountID != recorded.mountID
            return .present(now, remounted: remounted)
        }
        // The same drive back under other device numbers, at the same place.
        if let mount, let identity = recorded.identity, mount.mountPoint == identity.mountPoint,
           another == false || (another == nil && identity.matches(mount)) {
            return .present(now, remounted: true)
        }
        // Nothing indexed there to keep: the folder's file system now is its own from now on.
        guard hasPhotos else { return .new(now) }
        let was = recorded.identity?.display ?? Self.deviceText(recorded.device)
        if let identity = recorded.identity, !table.entries.isEmpty, !table.holds(identity) {
            return .offline(reason: "\(was) is not mounted (the folder there now is on \(now.identity?.display ?? Self.deviceText(device)))")
        }
        if another == true, let serialWas = recorded.serial.display, let isNow = serial.display {
            // Another stick in the same port, another card in the same reader.
            return .offline(reason: """
                another drive (\(isNow)) is at \(folder), not the one its photos \
                were indexed on (\(serialWas))
                """)
        }
        return .offline(reason: "its folder is on \(now.identity?.display ?? Self.deviceText(device)) now, not on \(was)")
    }

    /// "8:17", as `ls -l` and mountinfo write a device number.
    static func deviceText(_ device: UInt64) -> String {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        return "\(major):\(minor)"
    }
}

extension StoredVolume {
    /// The recorded UUID and file system id.
    var serial: FileSystemSerial { FileSystemSerial(uuid: uuid, fsID: fsID) }

    /// The recorded mount, nil when none was known.
    var identity: MountIdentity? {
        guard !mountPoint.isEmpty else { return nil }
        return MountIdentity(mountID: mountID, major: major, minor: minor, fsType: fsType, source: source,
                             mountPoint: mountPoint)
    }
}
