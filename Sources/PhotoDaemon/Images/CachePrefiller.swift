import FileSystem
import Logging
import PhotoAPI
import Store
import ThumbnailCache

/// Fills the cache's large (256 px) thumbnails ahead of time while photod is idle, through a
/// worker of its own that runs at the lowest CPU and I/O priority (`--background`).
struct CachePrefiller: Sendable {
    let store: Store
    let side: ImageSide
    let delivery: ImageDelivery
    let state: LibraryState
    let logger: Logger
    /// Seconds between passes; a pass skips what is already cached.
    var interval: Duration = .seconds(60)

    /// Passes until cancelled: each waits for the index to be ready, then makes every missing thumbnail.
    func run() async throws {
        logger.info("prefilling the thumbnail cache while idle (thumbnails.prefill), at the lowest CPU and I/O priority")
        while true {
            // Idle: the index is not being reconciled (a scan has the disk and the cores first).
            while state.summary.state != .ready && state.summary.state != .degraded {
                side.prefill.set(.idle, done: nil)
                try await Task.sleep(for: .seconds(1))
            }
            try await pass()
            try await Task.sleep(for: interval)
        }
    }

    /// One pass over every asset in path order; the photos no worker could take during it are
    /// tried once more at its end, so a pass that says `done` has left every photo with its
    /// thumbnail or its marker unless the workers kept failing to start.
    private func pass() async throws {
        var after: StorePosition?
        var done = 0
        var made = 0
        var notNow: [StoredAsset] = []
        side.prefill.set(.filling, done: nil)
        while true {
            let page = try await store.read { [after] in
                try $0.assets(groupKey: nil, sort: .path, after: after, limit: 200, selection: nil)
            }
            for asset in page {
                try Task.checkCancellation()
                switch await delivery.fillCache(for: asset, size: .large) {
                case .made: made += 1
                case .notNow: notNow.append(asset)
                case .present, .fileFailed: break
                }
                done += 1
                side.prefill.set(.filling, done: done)
            }
            guard let last = page.last else { break }
            after = StorePosition(value: .path(last.path), id: last.id)
        }
        var left = 0
        for asset in notNow {
            try Task.checkCancellation()
            switch await delivery.fillCache(for: asset, size: .large) {
            case .made: made += 1
            case .notNow: left += 1
            case .present, .fileFailed: break
            }
        }
        side.prefill.set(.done, done: done)
        if made > 0 { logger.info("prefilled \(made) thumbnails of \(done) photos") }
        if left > 0 { logger.notice("\(left) photos get their thumbnails in the next pass: no image worker took them in this one") }
    }
}
