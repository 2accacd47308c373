import FileSystem
import SQLite

/// The file system a folder's photos were indexed on: a root, or a drive mounted inside one.
/// Kept so that a folder whose drive is away (or an empty mount point left in its place) is
/// told apart from a folder whose photos were deleted.
public struct StoredVolume: Sendable, Equatable {
    /// The folder's canonical path: the root's, or the mount point's inside a root.
    public var folder: PathBytes
    /// The configured root the folder belongs to.
    public var root: String
    /// `st_dev` of the folder when its photos were indexed.
    public var device: UInt64
    /// The mount holding the folder, from /proc/self/mountinfo: its id, device numbers, file
    /// system type, source (the device or server) and mount point. Empty (0, "") when unknown.
    public var mountID: Int
    public var major: UInt32
    public var minor: UInt32
    public var fsType: String
    public var source: String
    public var mountPoint: PathBytes
    /// The file system's UUID as udev names it, "" when unknown.
    public var uuid: String
    /// `f_fsid` where it comes from the file system's own UUID or serial, 0 when unknown.
    public var fsID: UInt64

    /// Creates a volume record.
    public init(folder: PathBytes, root: String, device: UInt64, mountID: Int, major: UInt32, minor: UInt32,
                fsType: String, source: String, mountPoint: PathBytes, uuid: String = "", fsID: UInt64 = 0) {
        self.folder = folder
        self.root = root
        self.device = device
        self.mountID = mountID
        self.major = major
        self.minor = minor
        self.fsType = fsType
        self.source = source
        self.mountPoint = mountPoint
        self.uuid = uuid
        self.fsID = fsID
    }
}

extension StoreDatabase {
    /// Every volume record.
    public func volumes() throws -> [StoredVolume] {
        try read { db in
            let statement = try db.statement("""
                SELECT folder, root, device, mount_id, major, minor, fs_type, source, mount_point, uuid, fs_id
                FROM volumes ORDER BY folder
                """)
            var volumes: [StoredVolume] = []
            while try statement.step() {
                volumes.append(StoredVolume(
                    folder: PathBytes(statement.blob(0)), root: statement.text(1) ?? "",
                    device: UInt64(bitPattern: statement.int64(2)), mountID: Int(statement.int64(3)),
                    major: UInt32(truncatingIfNeeded: statement.int64(4)), minor: UInt32(truncatingIfNeeded: statement.int64(5)),
                    fsType: statement.text(6) ?? "", source: statement.text(7) ?? "", mountPoint: PathBytes(statement.blob(8)),
                    uuid: statement.text(9) ?? "", fsID: UInt64(bitPattern: statement.int64(10))))
            }
            return volumes
        }
    }

    /// Stores a volume record, replacing the one for the same folder.
    public func saveVolume(_ volume: StoredVolume) throws {
        try write { db in
            let statement = try db.statement("""
                INSERT INTO volumes(folder, root, device, mount_id, major, minor, fs_type, source, mount_point, uuid, fs_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(folder) DO UPDATE SET root = excluded.root, device = excluded.device,
                  mount_id = excluded.mount_id, major = excluded.major, minor = excluded.minor,
                  fs_type = excluded.fs_type, source = excluded.source, mount_point = excluded.mount_point,
                  uuid = excluded.uuid, fs_id = excluded.fs_id
                """)
            try statement.bind([
                .blob(volume.folder.bytes), .text(volume.root), .integer(Int64(bitPattern: volume.device)),
                .integer(Int64(volume.mountID)), .integer(Int64(volume.major)), .integer(Int64(volume.minor)),
                .text(volume.fsType), .text(volume.source), .blob(volume.mountPoint.bytes), .text(volume.uuid),
                .integer(Int64(bitPattern: volume.fsID)),
            ]).run()
        }
    }

    /// Deletes the volume record of `folder`, if any.
    public func deleteVolume(folder: PathBytes) throws {
        try write { db in
            try db.statement("DELETE FROM volumes WHERE folder = ?").bind([.blob(folder.bytes)]).run()
        }
    }
}
