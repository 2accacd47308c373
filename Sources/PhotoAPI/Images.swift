/// How an image is scaled into the requested box (PHImageContentMode).
public enum ContentMode: String, Codable, Sendable, CaseIterable {
    /// The whole image inside the box (aspect fit).
    case fit
    /// The box covered, centre-cropped to it (aspect fill).
    case fill
}

/// Which image a request wants, and when (PHImageRequestOptionsDeliveryMode).
public enum DeliveryMode: String, Codable, Sendable, CaseIterable {
    /// The best image already there, at once.
    case fast
    /// Decoded and scaled to the box.
    case highQuality
    /// The fast image first, then the high-quality one (a `more` call).
    case opportunistic
}

/// The encoding of a delivered image.
public enum ImageFormat: String, Codable, Sendable, CaseIterable {
    case jpeg, png
}

/// Where a delivered image came from.
public enum ImageSource: String, Codable, Sendable {
    /// Taken from the file as it is (an EXIF thumbnail, a raw's preview).
    case embedded
    /// The freedesktop.org thumbnail cache.
    case cache
    /// A worker decoded the file now.
    case decoded
}

/// Parameters of `io.photod.Library.RequestImage`.
public struct RequestImageParameters: Codable, Sendable, Equatable {
    public var id: String
    public var width: Int
    public var height: Int
    public var contentMode: ContentMode?
    public var deliveryMode: DeliveryMode?
    public var format: ImageFormat?

    /// The largest box side RequestImage serves; originals go through OpenOriginal.
    public static let maximumSide = 2048

    /// Creates the parameters.
    public init(id: String, width: Int, height: Int, contentMode: ContentMode? = nil,
                deliveryMode: DeliveryMode? = nil, format: ImageFormat? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.contentMode = contentMode
        self.deliveryMode = deliveryMode
        self.format = format
    }
}

/// Reply of `io.photod.Library.RequestImage`: one encoded image.
public struct RequestImageReply: Codable, Sendable, Equatable {
    /// The largest `data` photod sends (base64 text): a 2048x2048 PNG of 8-bit RGBA noise is 22.4 MB
    /// of it. A larger image is ImageUnavailable; clients accept replies of at least this.
    public static let maximumDataBytes = 24 << 20

    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// True for an interim or smaller-than-asked image.
    public var degraded: Bool
    public var source: ImageSource
    /// The EXIF orientation the caller still has to apply (1: upright already).
    public var orientation: Int
    /// The encoded image, base64.
    public var data: String

    /// Creates the reply.
    public init(format: ImageFormat, width: Int, height: Int, degraded: Bool, source: ImageSource,
                orientation: Int, data: String) {
        self.format = format
        self.width = width
        self.height = height
        self.degraded = degraded
        self.source = source
        self.orientation = orientation
        self.data = data
    }
}

/// Parameters of `io.photod.Library.OpenOriginal`.
public struct OpenOriginalParameters: Codable, Sendable, Equatable {
    public var id: String
    /// True when the client receives file descriptors (SCM_RIGHTS).
    public var acceptFileDescriptors: Bool?

    /// Creates the parameters.
    public init(id: String, acceptFileDescriptors: Bool? = true) {
        self.id = id
        self.acceptFileDescriptors = acceptFileDescriptors
    }
}

/// Reply of `io.photod.Library.OpenOriginal`; the descriptor travels beside it.
public struct OpenOriginalReply: Codable, Sendable, Equatable {
    /// Index of the descriptor among those passed with the reply.
    public var fileDescriptor: Int
    /// The file's name (last path component), invalid UTF-8 as U+FFFD.
    public var name: String
    /// Base64 of the name's exact bytes, present only when the name is not valid UTF-8.
    public var nameBytes: String?
    public var size: Int
    /// Modification time, ISO 8601 UTC.
    public var modified: String
    public var format: String
    /// What the descriptor is; nil from a photod older than this field, which passed the file.
    public var descriptor: OriginalDescriptor?

    /// Creates the reply.
    public init(fileDescriptor: Int, name: String, nameBytes: String? = nil, size: Int, modified: String,
                format: String, descriptor: OriginalDescriptor? = nil) {
        self.fileDescriptor = fileDescriptor
        self.name = name
        self.nameBytes = nameBytes
        self.size = size
        self.modified = modified
        self.format = format
        self.descriptor = descriptor
    }
}

/// What OpenOriginal's descriptor is, so a client knows whether it may fstat, seek or mmap it.
public enum OriginalDescriptor: String, Codable, Sendable {
    /// The original file itself, read-only (the owner only).
    case file
    /// A sealed in-memory copy (memfd): seekable and mappable, never writable.
    case sealedCopy
    /// A pipe photod fills: read it from start to end, no fstat size, no seek, no mmap.
    case pipe
}

/// Whether photod fills the thumbnail cache ahead of time, and where it is.
public enum PrefillState: String, Codable, Sendable {
    case off, idle, filling, done
}

/// The image workers and the thumbnail cache, as Status reports them.
public struct ThumbnailStatus: Codable, Sendable, Equatable {
    public var workers: Int
    public var maxWorkers: Int
    public var restarts: Int
    public var decoded: Int
    public var cacheHits: Int
    public var failed: Int
    public var cache: String
    public var prefill: PrefillState
    public var prefilled: Int?

    /// Creates the status.
    public init(workers: Int, maxWorkers: Int, restarts: Int, decoded: Int, cacheHits: Int, failed: Int,
                cache: String, prefill: PrefillState, prefilled: Int?) {
        self.workers = workers
        self.maxWorkers = maxWorkers
        self.restarts = restarts
        self.decoded = decoded
        self.cacheHits = cacheHits
        self.failed = failed
        self.cache = cache
        self.prefill = prefill
        self.prefilled = prefilled
    }
}

/// Parameters of `io.photod.Library.ImageTooLarge`.
public struct ImageTooLargeError: Codable, Sendable, Equatable {
    public var maximum: Int
    public var hint: String

    /// Creates the error parameters.
    public init(maximum: Int, hint: String) {
        self.maximum = maximum
        self.hint = hint
    }
}

/// `ImageBusy`: the caller has as many image requests waiting for a worker as it may.
public struct ImageBusyError: Codable, Sendable, Equatable {
    /// Requests of this caller waiting now.
    public var waiting: Int
    public var hint: String

    /// Creates the error parameters.
    public init(waiting: Int, hint: String) {
        self.waiting = waiting
        self.hint = hint
    }
}

/// Parameters of `io.photod.Library.ImageUnavailable`.
public struct ImageUnavailableError: Codable, Sendable, Equatable {
    public var id: String
    public var reason: String

    /// Creates the error parameters.
    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// Parameters of `io.photod.Library.FileDescriptorsRequired`.
public struct FileDescriptorsRequiredError: Codable, Sendable, Equatable {
    public var hint: String

    /// Creates the error parameters.
    public init(hint: String) { self.hint = hint }
}
