import FileSystem

/// What identifies a file's version on disk: unchanged stamp means unchanged file, no need to read it.
public struct FileStamp: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64
    /// Signature of the XMP sidecar the asset was read with: 0 none, -1 unknown (read again);
    /// a sidecar appearing, changing or vanishing changes the stamp, so the image is read again.
    public var sidecar: Int64

    /// Creates a stamp.
    public init(device: UInt64, inode: UInt64, size: Int64, mtimeNs: Int64, sidecar: Int64 = 0) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNs = mtimeNs
        self.sidecar = sidecar
    }
}

/// An indexed file as the scanner needs it for reconciling: id, path and stamp.
public struct IndexedFile: Sendable, Equatable {
    public var id: String
    public var path: PathBytes
    public var stamp: FileStamp

    /// Creates an indexed-file value.
    public init(id: String, path: PathBytes, stamp: FileStamp) {
        self.id = id
        self.path = path
        self.stamp = stamp
    }
}

/// What was read from a file and how it is grouped.
public struct AssetContent: Sendable, Equatable {
    /// The group identity (the normalized description, case-folded in case-insensitive mode).
    public var groupKey: String
    /// This asset's spelling of the group name; a group is displayed by its most common spelling.
    public var groupSpelling: String
    public var description: String?
    public var descriptionSource: String?
    public var format: String
    public var taken: String?
    /// `taken` as nanoseconds since the epoch, for ordering; nil when there is no date.
    public var takenNs: Int64?
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var make: String?
    public var model: String?
    /// When the description came from an XMP sidecar: which of the image's sidecar names it
    /// was, as an index into the names the daemon tries in order (`name.ext.xmp`, ...). An
    /// index rather than a path, so it stays right when the image and its sidecar are renamed
    /// or moved together (the sidecar's signature, which includes the index, is unchanged then).
    public var sidecarCandidate: Int?

    /// Creates a content value.
    public init(
        groupKey: String, groupSpelling: String, description: String? = nil, descriptionSource: String? = nil,
        format: String, taken: String? = nil, takenNs: Int64? = nil, width: Int? = nil, height: Int? = nil,
        orientation: Int? = nil, make: String? = nil, model: String? = nil, sidecarCandidate: Int? = nil
    ) {
        self.groupKey = groupKey
        self.groupSpelling = groupSpelling
        self.description = description
        self.descriptionSource = descriptionSource
        self.format = format
        self.taken = taken
        self.takenNs = takenNs
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
        self.sidecarCandidate = sidecarCandidate
    }
}

/// One asset as stored, with its group's display name.
public struct StoredAsset: Sendable, Equatable {
    public var id: String
    public var path: PathBytes
    public var stamp: FileStamp
    /// The display name of the asset's group.
    public var groupName: String
    public var content: AssetContent
}

/// One group as stored.
public struct StoredGroup: Sendable, Equatable {
    /// The key of the fallback group (photos without a usable description): the empty text,
    /// which no description is filed under (an empty description is none), so a photo whose
    /// description is literally the fallback's name ("Other") stays a group of its own.
    public static let fallbackKey = ""

    public var key: String
    public var name: String
    public var count: Int
    /// `taken` of the group's newest asset, when it has one.
    public var latestTaken: String?
    /// Modification time of the group's newest asset (used when it has no `taken`).
    public var latestMtimeNs: Int64?
}

/// An asset whose path changed while its id stayed.
public struct MovedAsset: Codable, Sendable, Equatable {
    public var id: String
    public var from: PathBytes
    public var to: PathBytes

    /// Creates a move.
    public init(id: String, from: PathBytes, to: PathBytes) {
        self.id = id
        self.from = from
        self.to = to
    }
}

/// One committed write batch, as recorded in the change log.
public struct CommittedChange: Codable, Sendable, Equatable {
    public var token: Int64
    public var inserted: [String] = []
    public var removed: [String] = []
    public var updated: [String] = []
    public var moved: [MovedAsset] = []
    /// Display names of groups created or whose count changed.
    public var groupsChanged: [String] = []
    /// Display names of groups that became empty.
    public var groupsRemoved: [String] = []
    /// True when the fallback group is among `groupsChanged`, as its first name: a description
    /// may read like the fallback's name ("Other") and be a group of its own. Nil when not.
    public var fallbackChanged: Bool?
    /// True when the fallback group is among `groupsRemoved`, as its first name. Nil when not.
    public var fallbackRemoved: Bool?
    /// The paths the removed assets had, for whoever keeps files about them (the thumbnail
    /// cache). Only the live change carries them: the log keeps ids, as clients see them.
    public var removedPaths: [PathBytes] = []

    private enum CodingKeys: String, CodingKey {
        case token, inserted, removed, updated, moved, groupsChanged, groupsRemoved, fallbackChanged, fallbackRemoved
    }

    /// Creates a change record.
    public init(token: Int64, inserted: [String] = [], removed: [String] = [], updated: [String] = [],
                moved: [MovedAsset] = [], groupsChanged: [String] = [], groupsRemoved: [String] = [],
                fallbackChanged: Bool? = nil, fallbackRemoved: Bool? = nil) {
        self.token = token
        self.inserted = inserted
        self.removed = removed
        self.updated = updated
        self.moved = moved
        self.groupsChanged = groupsChanged
        self.groupsRemoved = groupsRemoved
        self.fallbackChanged = fallbackChanged
        self.fallbackRemoved = fallbackRemoved
    }

    /// True when the batch changed nothing.
    public var isEmpty: Bool {
        inserted.isEmpty && removed.isEmpty && updated.isEmpty && moved.isEmpty
            && groupsChanged.isEmpty && groupsRemoved.isEmpty
    }

    /// Number of assets the change touched.
    public var assetCount: Int { inserted.count + removed.count + updated.count + moved.count }
}
