import Logging
import Store
import ThumbnailCache

/// Removes the cached thumbnails of files that left the library (removed, or moved: a cache
/// entry is keyed by the old path's URI), off the store's writer thread.
final class ThumbnailJanitor: Sendable {
    private let gone: AsyncStream<[[UInt8]]>
    private let continuation: AsyncStream<[[UInt8]]>.Continuation

    /// A janitor with nothing to do yet.
    init() {
        // Each element is one commit's paths; if thousands of commits pile up unswept, the
        // oldest are dropped and their thumbnails stay as the orphans any cache can have.
        (gone, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
    }

    /// Takes note of a committed change (called on the store's writer thread: never blocks).
    func forget(_ change: CommittedChange) {
        let paths = change.removedPaths + change.moved.map(\.from)
        if !paths.isEmpty { continuation.yield(paths) }
    }

    /// Removes thumbnails as changes arrive, until `finish` or cancellation.
    func run(cache: ThumbnailCache, logger: Logger) async {
        for await paths in gone {
            do {
                try cache.remove(paths: paths)
            } catch {
                logger.warning("could not remove a thumbnail of a file that left the library",
                               metadata: ["error": "\(error)"])
            }
        }
    }

    /// Ends `run` once what is queued has been swept.
    func finish() { continuation.finish() }
}
