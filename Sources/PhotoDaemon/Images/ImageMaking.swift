import PhotoAPI

/// One image to make from an open file: what a worker is asked.
struct ImageJob: Sendable, Equatable {
    /// `full` decodes the image; `embedded` prefers an image already in the file (a HEIF thumbnail item).
    enum Mode: Sendable, Equatable { case full, embedded }

    var mode: Mode
    var width: Int
    var height: Int
    /// Cover the box and centre-crop to it, instead of fitting inside it.
    var fill: Bool
    var format: PhotoAPI.ImageFormat
    /// Also return a PNG copy of the same pixels, for the thumbnail cache.
    var cacheCopy: Bool
}

/// An image a worker made.
struct MadeImage: Sendable, Equatable {
    var bytes: [UInt8]
    var format: PhotoAPI.ImageFormat
    var width: Int
    var height: Int
    /// The worker used an image embedded in the file (not a full decode).
    var usedEmbedded: Bool
    /// The PNG copy for the cache, when the job asked for one.
    var cachePNG: [UInt8]?
}

/// Why no image was made.
enum ImageMakingError: Error, Equatable, CustomStringConvertible {
    /// The file is not an image the worker can decode: worth a fail/ marker.
    case undecodable(String)
    /// The worker crashed or passed the time limit on this file: also worth a fail/ marker.
    case workerFailed(String)
    /// The worker was killed from outside (SIGKILL from the OOM killer or a person) or broke
    /// down in a way that says nothing about the file: the next request tries again.
    case workerLost(String)
    /// No worker could run (not installed, cannot start): says nothing about the file.
    case unavailable(String)
    /// The caller already has as many requests waiting for a worker as it may.
    case busy(waiting: Int)

    var description: String {
        switch self {
        case .undecodable(let reason), .workerFailed(let reason), .workerLost(let reason), .unavailable(let reason):
            reason
        case .busy(let waiting):
            "\(waiting) requests of this caller are already waiting for an image worker"
        }
    }

    /// Whether the failure is the file's doing, so the cache should remember it.
    var marksFile: Bool {
        switch self {
        case .undecodable, .workerFailed: true
        case .workerLost, .unavailable, .busy: false
        }
    }

    /// Whether the worker process is gone and was replaced.
    var lostWorker: Bool {
        switch self {
        case .workerFailed, .workerLost: true
        case .undecodable, .unavailable, .busy: false
        }
    }
}

/// Makes images from open files: the seam between the handlers and the worker processes, so
/// the handlers are tested with the real workers and the pool without varlink.
protocol ImageMaking: Sendable {
    /// Makes the image `job` asks for from the regular file open at `fileDescriptor` (read-only;
    /// the caller keeps it open until this returns), for `caller`: workers serve callers fairly.
    func make(_ job: ImageJob, fileDescriptor: Int32, for caller: ImageCaller) async throws(ImageMakingError) -> MadeImage
}
