/// Where a description was read from.
public enum DescriptionSource: String, Codable, Sendable, CaseIterable {
    case exif, xmp, iptc, sidecar
}

/// One image file in the library, as `io.photod.Library.Asset` on the wire.
public struct Asset: Codable, Sendable, Equatable {
    /// Stable identifier: survives renames, moves inside the library and restarts.
    public var id: String
    /// Absolute path as UTF-8; invalid bytes are replaced by U+FFFD (see `pathBytes`).
    public var path: String
    /// Base64 of the exact path bytes, present only when the path is not valid UTF-8.
    public var pathBytes: String?
    /// The group the asset is filed under.
    public var group: String
    /// True when `group` is the fallback group (no usable description), false when it is the
    /// group of the asset's description, even one that reads like the fallback's name; nil
    /// from daemons that do not tell them apart.
    public var fallback: Bool?
    /// The description as read from the file, before normalization.
    public var description: String?
    public var descriptionSource: DescriptionSource?
    /// Container format decided from the file's bytes.
    public var format: String
    /// EXIF DateTimeOriginal in ISO 8601, with an offset when the file records one.
    public var taken: String?
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var make: String?
    public var model: String?
    /// File size in bytes.
    public var size: Int
    /// Modification time, ISO 8601 UTC.
    public var modified: String
    /// The XMP sidecar's absolute path when the description came from it (`descriptionSource`
    /// sidecar); invalid bytes are replaced by U+FFFD (see `sidecarBytes`).
    public var sidecar: String?
    /// Base64 of the sidecar path's exact bytes, present only when it is not valid UTF-8.
    public var sidecarBytes: String?
    /// True when the asset's root is offline (its drive is away): kept, but its file cannot
    /// be read now. Nil otherwise.
    public var offline: Bool?

    /// Creates an asset value.
    public init(
        id: String, path: String, pathBytes: String? = nil, group: String, fallback: Bool? = nil,
        description: String? = nil,
        descriptionSource: DescriptionSource? = nil, format: String, taken: String? = nil, width: Int? = nil,
        height: Int? = nil, orientation: Int? = nil, make: String? = nil, model: String? = nil, size: Int,
        modified: String, sidecar: String? = nil, sidecarBytes: String? = nil, offline: Bool? = nil
    ) {
        self.id = id
        self.path = path
        self.pathBytes = pathBytes
        self.group = group
        self.fallback = fallback
        self.description = description
        self.descriptionSource = descriptionSource
        self.format = format
        self.taken = taken
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
        self.size = size
        self.modified = modified
        self.sidecar = sidecar
        self.sidecarBytes = sidecarBytes
        self.offline = offline
    }
}

/// What kind of time `Group.latest` is.
public enum LatestSource: String, Codable, Sendable, CaseIterable {
    /// When the newest photo was taken (EXIF DateTimeOriginal, the camera's clock).
    case taken
    /// When the newest photo's file was last modified (it records no capture time).
    case modified
}

/// A set of assets sharing one normalized description.
public struct Group: Codable, Sendable, Equatable {
    public var name: String
    public var count: Int
    /// True for the group of assets without a usable description.
    public var fallback: Bool
    /// Newest `taken` (else `modified`) among its assets.
    public var latest: String?
    /// Which of the two `latest` is; nil without `latest`, or from daemons that do not say.
    public var latestSource: LatestSource?

    /// Creates a group value.
    public init(name: String, count: Int, fallback: Bool, latest: String?, latestSource: LatestSource? = nil) {
        self.name = name
        self.count = count
        self.fallback = fallback
        self.latest = latest
        self.latestSource = latestSource
    }
}
