import FileSystem
import Logging
import NIOPosix
import Store
import ThumbnailCache

/// Keeps photod's part of the thumbnail cache in step with the index and within its bound:
/// removes the thumbnails of files that left the library (removed, or moved: a cache entry is
/// keyed by the old path's URI), and every `trimInterval` photod's oldest thumbnails past
/// `maxBytes`; all off the store's writer thread.
final class ThumbnailJanitor: Sendable {
    private let gone: AsyncStream<[PathBytes]>
    private let continuation: AsyncStream<[PathBytes]>.Continuation
    private let maxBytes: Int64
    private let trimInterval: Duration

    /// A janitor with nothing to do yet, that keeps photod's thumbnails within `maxBytes`.
    init(maxBytes: Int64 = ThumbnailConfig().cacheMaxBytes, trimInterval: Duration = .seconds(15 * 60)) {
        // Each element is one commit's paths; if thousands of commits pile up unswept, the
        // oldest are dropped and their thumbnails stay as the orphans any cache can have.
        (gone, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
        self.maxBytes = maxBytes
        self.trimInterval = trimInterval
    }

    /// Takes note of a committed change (called on the store's writer thread: never blocks).
    func forget(_ change: CommittedChange) {
        let paths = change.removedPaths + change.moved.map(\.from)
        if !paths.isEmpty { continuation.yield(paths) }
    }

    /// Removes thumbnails as changes arrive and trims the cache now and then, until `finish` or cancellation.
    func run(cache: ThumbnailCache, logger: Logger) async {
        // A trim walks the cache's folders: its own thread, never one of the cooperative pool's.
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.trimPeriodically(cache: cache, on: thread, logger: logger) }
            for await paths in gone {
                do {
                    try cache.remove(paths: paths)
                } catch {
                    logger.warning("could not remove a thumbnail of a file that left the library",
                                   metadata: ["error": "\(error)"])
                }
            }
            group.cancelAll()
        }
        try? await thread.shutdownGracefully()
    }

    /// Ends `run` once what is queued has been swept.
    func finish() { continuation.finish() }

    private func trimPeriodically(cache: ThumbnailCache, on thread: NIOThreadPool, logger: Logger) async {
        let maxBytes = self.maxBytes
        while (try? await Task.sleep(for: trimInterval)) != nil {
            do {
                let result = try await thread.runIfActive { try cache.trim(toBytes: maxBytes) }
                if result.removed > 0 {
                    logger.info("removed photod's oldest thumbnails past the cache bound", metadata: [
                        "removed": "\(result.removed)", "bytes": "\(result.ownBytesBefore - result.ownBytesAfter)",
                        "bound": "\(maxBytes)",
                    ])
                }
            } catch {
                logger.warning("could not trim the thumbnail cache", metadata: ["error": "\(error)"])
            }
        }
    }
}
