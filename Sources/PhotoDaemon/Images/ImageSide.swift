#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhotoAPI
import Store
import ThumbnailCache

/// Everything that makes and serves images, built once per daemon: the workers, the cache,
/// the counters Status reports and the janitor that keeps the cache in step with the index.
struct ImageSide: Sendable {
    let settings: ThumbnailConfig
    let cache: ThumbnailCache
    let pool: ThumbnailerPool
    let counters = ImageCounters()
    let janitor: ThumbnailJanitor
    /// The pipes being filled with originals for apps.
    let feeds = OriginalFeeds()
    /// The sealed copies of originals apps hold.
    let copies = OriginalCopies()
    /// RequestImage calls under way per caller, shared by every delivery.
    let replySlots = ImageReplySlots()
    let prefill: PrefillProgress
    /// The prefill's own worker, at the lowest CPU and I/O priority; nil when prefill is off.
    let backgroundPool: ThumbnailerPool?

    /// The image side `config` describes, on a machine with `cores` cores.
    init(config: DaemonConfig, cores: Int, logger: Logger,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        settings = config.thumbnails
        janitor = ThumbnailJanitor(maxBytes: config.thumbnails.cacheMaxBytes)
        let root = config.thumbnails.cacheFolder
            ?? ThumbnailCache.defaultRoot(environment: environment)
            ?? DefaultPaths(environment: environment).home + "/.cache/thumbnails"
        cache = ThumbnailCache(rootPath: root, appVersion: PhotodVersion.current)
        let launch = ThumbnailerPool.Launch(
            executable: WorkerLocator.find(configured: config.thumbnails.worker),
            environment: Self.workerEnvironment(environment), timeout: config.thumbnails.timeout)
        pool = ThumbnailerPool(launch: launch, maxWorkers: config.thumbnails.maxWorkers(cores: cores), logger: logger)
        prefill = PrefillProgress(enabled: config.thumbnails.prefill)
        var background = launch
        background.arguments = ["--background"]
        backgroundPool = config.thumbnails.prefill
            ? ThumbnailerPool(launch: background, maxWorkers: 1, logger: logger) : nil
    }

    /// The worker's environment: nothing of photod's but the locale and the test knobs.
    /// VIPS_NOVECTOR: no run-time code generation (ORC) in a process that decodes hostile
    /// files, which also keeps it working under the unit's MemoryDenyWriteExecute.
    /// MALLOC_ARENA_MAX: each decoder thread's malloc arena reserves 64 MiB of address space,
    /// which the worker's 1 GiB limit counts though little of it is ever touched.
    static func workerEnvironment(_ environment: [String: String]) -> [String] {
        var result = ["LANG=C.UTF-8", "VIPS_NOVECTOR=1", "MALLOC_ARENA_MAX=2"]
        if let value = environment["PHOTOD_THUMBNAILER_MEMORY_MB"] { result.append("PHOTOD_THUMBNAILER_MEMORY_MB=\(value)") }
        return result
    }

    /// `RequestImage` over this side (or, `background`, the prefill's deliveries).
    func delivery(store: Store, logger: Logger, background: Bool = false) -> ImageDelivery {
        ImageDelivery(assets: VisibleAsset(store: store), cache: cache,
                      maker: background ? backgroundPool ?? pool : pool, counters: counters, logger: logger,
                      slots: replySlots)
    }

    /// `OpenOriginal` over this side.
    func opener(store: Store, logger: Logger) -> OriginalOpener {
        OriginalOpener(assets: VisibleAsset(store: store), feeds: feeds, copies: copies, logger: logger)
    }

    /// What Status says about the workers and the cache.
    func status() async -> ThumbnailStatus {
        let counts = counters.snapshot
        let progress = prefill.snapshot
        return ThumbnailStatus(
            workers: await pool.workerCount, maxWorkers: pool.maxWorkers, restarts: await pool.restarts,
            decoded: counts.decoded, cacheHits: counts.cacheHits, failed: counts.failed,
            cache: String(decoding: cache.root, as: UTF8.self), prefill: progress.state, prefilled: progress.done)
    }
}
