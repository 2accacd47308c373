import PhotoAPI
import Synchronization

/// What the image side has done since start, for Status.
final class ImageCounters: Sendable {
    private struct Counts {
        var decoded = 0
        var cacheHits = 0
        var failed = 0
    }

    private let counts = Mutex(Counts())

    /// A worker made an image.
    func countDecoded() { counts.withLock { $0.decoded += 1 } }
    /// A request was answered from the thumbnail cache.
    func countCacheHit() { counts.withLock { $0.cacheHits += 1 } }
    /// A file could not be made into an image.
    func countFailed() { counts.withLock { $0.failed += 1 } }

    /// The counts as (decoded, cacheHits, failed).
    var snapshot: (decoded: Int, cacheHits: Int, failed: Int) {
        counts.withLock { ($0.decoded, $0.cacheHits, $0.failed) }
    }
}
