import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Metadata
import PhotoAPI
import Store
import ThumbnailCache
import Varlink

/// `RequestImage`: PhotoKit's three delivery modes over the file's embedded preview, the
/// freedesktop.org thumbnail cache and the sandboxed workers.
struct ImageDelivery: Sendable {
    let assets: VisibleAsset
    let cache: ThumbnailCache
    let maker: any ImageMaking
    let counters: ImageCounters
    let logger: Logger
    /// Calls under way per caller, replies included.
    var slots = ImageReplySlots()

    /// Answers one request: one reply, or for `opportunistic` an interim one first. `caller`
    /// decides its place among the requests waiting for a worker (the owner's go first).
    func request(_ parameters: RequestImageParameters, access: LibraryAccess, caller: ImageCaller, more: Bool,
                 replier: VarlinkReplier) async throws {
        let box = try Self.box(of: parameters)
        let mode = parameters.deliveryMode ?? .highQuality
        if mode == .opportunistic, !more { throw VarlinkError.expectedMore() }
        do throws(ImageMakingError) {
            try await slots.take(caller)
        } catch {
            await RefusalPace.wait()
            throw Self.busy(error)
        }
        // Held until the reply is written, or given up on with its connection.
        do {
            try await answer(parameters, box: box, mode: mode, access: access, caller: caller, replier: replier)
        } catch {
            await slots.give(caller)
            throw error
        }
        await slots.give(caller)
    }

    /// The error for a caller with too many requests waiting.
    static func busy(_ error: ImageMakingError) -> VarlinkError {
        guard case .busy(let waiting) = error else {
            return VarlinkError(LibraryInterface.Error.imageBusy, parameters: ImageBusyError(waiting: 0, hint: "\(error)"))
        }
        return VarlinkError(LibraryInterface.Error.imageBusy, parameters: ImageBusyError(
            waiting: waiting, hint: "\(waiting) image requests of this caller are already waiting; "
                + "wait for their replies before asking for more"))
    }

    /// Finds the asset and sends its image (and for `opportunistic` an interim one first).
    private func answer(_ parameters: RequestImageParameters, box: ImageGeometry, mode: DeliveryMode,
                        access: LibraryAccess, caller: ImageCaller, replier: VarlinkReplier) async throws {
        let asset = try await assets.find(parameters.id, access)
        let file: OpenFile
        switch AssetFile.open(asset, for: access) {
        case .success(let opened): file = opened
        case .failure(let error):
            throw unavailable(parameters.id, "the file cannot be opened (\(error.reason))")
        }
        let request = Request(parameters: parameters, asset: asset, box: box, file: file.info,
                              fileDescriptor: file.fileDescriptor, caller: caller)
        switch mode {
        case .fast:
            try await fast(request).send(with: replier)
        case .highQuality:
            try await highQuality(request).send(with: replier)
        case .opportunistic:
            if let interim = existing(request), interim.reply.degraded {
                try await interim.send(with: replier, continues: true)
            }
            try await highQuality(request).send(with: replier)
        }
        withExtendedLifetime(file) {}
    }

    /// One request's facts, gathered once.
    struct Request {
        let parameters: RequestImageParameters
        let asset: StoredAsset
        let box: ImageGeometry
        let file: FileInfo
        let fileDescriptor: Int32
        /// Whom the image is for, in the workers' queue.
        var caller: ImageCaller = .owner

        var fill: Bool { parameters.contentMode == .fill }
        /// Thumb::MTime: whole seconds of the file's modification time.
        var mtime: Int64 { file.mtimeNs / 1_000_000_000 }
        var orientation: Int { asset.content.orientation ?? 1 }
        var expected: ImageGeometry {
            ImageGeometry.expected(box: box, fill: fill, original: ImageGeometry.displayed(
                width: asset.content.width, height: asset.content.height, orientation: asset.content.orientation))
        }
        /// The standard cache size this box is, when it is one (a square fit box of 128...1024).
        var standardSize: ThumbnailSize? { fill ? nil : ThumbnailSize.exact(width: box.width, height: box.height) }
    }

    /// The box, or the error naming what is wrong with it.
    static func box(of parameters: RequestImageParameters) throws -> ImageGeometry {
        guard parameters.width >= 1 else { throw VarlinkError.invalidParameter("width") }
        guard parameters.height >= 1 else { throw VarlinkError.invalidParameter("height") }
        let maximum = RequestImageParameters.maximumSide
        guard parameters.width <= maximum, parameters.height <= maximum else {
            throw VarlinkError(LibraryInterface.Error.imageTooLarge, parameters: ImageTooLargeError(
                maximum: maximum, hint: "RequestImage makes display images of at most \(maximum)x\(maximum) pixels; "
                    + "for the full image read the original with io.photod.Library.OpenOriginal"))
        }
        return ImageGeometry(width: parameters.width, height: parameters.height)
    }

    /// `fast`: what is already there, else whatever a worker makes quickest.
    func fast(_ request: Request) async throws -> DeliveredImage {
        if let existing = existing(request) { return existing }
        let made = try await make(request, mode: .embedded, format: request.parameters.format ?? .jpeg)
        let geometry = ImageGeometry(width: made.width, height: made.height)
        return reply(made, degraded: made.usedEmbedded && geometry.isSmaller(than: request.expected))
    }

    /// `highQuality`: the cached thumbnail when the box is a standard size and PNG will do,
    /// else a worker's decode, stored in the cache when the box is a standard size.
    func highQuality(_ request: Request) async throws -> DeliveredImage {
        let format = request.parameters.format
        if let size = request.standardSize, format != .jpeg,
            let cached = cache.lookup(path: request.asset.path, mtime: request.mtime, size: size, fileSize: request.file.size) {
            counters.countCacheHit()
            return reply(cached, request)
        }
        let made = try await make(request, mode: .full, format: format ?? .jpeg)
        if let size = request.standardSize, let png = made.format == .png ? made.bytes : made.cachePNG {
            do {
                try cache.store(png: png, path: request.asset.path, mtime: request.mtime,
                                fileSize: request.file.size, size: size)
            } catch {
                logger.warning("could not store a thumbnail in the cache", metadata: ["error": "\(error)"])
            }
        }
        return reply(made, degraded: false)
    }

    /// How filling the cache for one photo ended.
    enum CacheFill: Sendable, Equatable {
        /// A thumbnail was made and stored.
        case made
        /// The thumbnail, or the file's fail/ marker, was already there.
        case present
        /// The file is gone, unreadable, or no worker can make an image of it (it has its marker now).
        case fileFailed
        /// No worker could take it now (none started in time, or one was lost): worth another try.
        case notNow
    }

    /// Makes `asset`'s thumbnail of `size` for the cache unless it is there (or the file has a
    /// fail/ marker); how that ended.
    func fillCache(for asset: StoredAsset, size: ThumbnailSize) async -> CacheFill {
        let file: OpenFile
        switch SafeOpener().openRegularFile(asset.path) {
        case .success(let opened): file = opened
        case .failure: return .fileFailed
        }
        let mtime = file.info.mtimeNs / 1_000_000_000
        if cache.lookup(path: asset.path, mtime: mtime, size: size, fileSize: file.info.size) != nil
            || cache.isMarkedFailed(path: asset.path, mtime: mtime) {
            return .present
        }
        let request = Request(
            parameters: RequestImageParameters(id: asset.id, width: size.pixels, height: size.pixels, format: .png),
            asset: asset, box: ImageGeometry(width: size.pixels, height: size.pixels), file: file.info,
            fileDescriptor: file.fileDescriptor, caller: .app("photod prefill"))
        let made = (try? await highQuality(request)) != nil
        withExtendedLifetime(file) {}
        if made { return .made }
        // A failure that was the file's own left its marker; any other was the worker's.
        return cache.isMarkedFailed(path: asset.path, mtime: mtime) ? .fileFailed : .notNow
    }

    /// The best image already made: a cached thumbnail or the file's embedded preview, the
    /// smallest that covers the box, else the largest there is (degraded).
    func existing(_ request: Request) -> DeliveredImage? {
        let side = max(request.box.width, request.box.height)
        // The cache holds PNGs and embedded previews are JPEGs: an image of another encoding
        // than the one asked for is no answer, and a worker makes that one instead.
        let wanted = request.parameters.format
        var candidates: [DeliveredImage] = []
        let sizes = wanted == .jpeg ? [] : ThumbnailSize.allCases
        let covering = sizes.filter { $0.pixels >= side }
        for size in covering + sizes.filter({ $0.pixels < side }).reversed() {
            if let cached = cache.lookup(path: request.asset.path, mtime: request.mtime, size: size, fileSize: request.file.size) {
                candidates.append(reply(cached, request))
                break
            }
        }
        if wanted != .png, candidates.first?.reply.degraded ?? true,
            let preview = EmbeddedPreviewReader.read(fileDescriptor: request.fileDescriptor,
                                                     fileSize: Int(request.file.size), covering: side) {
            let shown = ImageGeometry(width: preview.width, height: preview.height).oriented(request.orientation)
            candidates.append(DeliveredImage(
                format: .jpeg, width: preview.width, height: preview.height,
                degraded: shown.isSmaller(than: request.expected), source: .embedded,
                orientation: request.orientation, bytes: preview.bytes))
        }
        guard let best = candidates.first(where: { !$0.reply.degraded })
            ?? candidates.max(by: { $0.reply.width < $1.reply.width })
        else { return nil }
        if best.reply.source == .cache { counters.countCacheHit() }
        return best
    }

    /// A worker's image for `request`, remembering a file no worker can make an image of.
    private func make(_ request: Request, mode: ImageJob.Mode, format: PhotoAPI.ImageFormat) async throws -> MadeImage {
        let id = request.parameters.id
        let words = ImageFailureText(request.asset, fast: mode == .embedded)
        if cache.isMarkedFailed(path: request.asset.path, mtime: request.mtime) {
            throw unavailable(id, words.markedBefore)
        }
        let job = ImageJob(mode: mode, width: request.box.width, height: request.box.height, fill: request.fill,
                           format: format, cacheCopy: request.standardSize != nil && format != .png)
        let made: MadeImage
        do throws(ImageMakingError) {
            made = try await maker.make(job, fileDescriptor: request.fileDescriptor, for: request.caller)
            counters.countDecoded()
        } catch .busy(let waiting) {
            await RefusalPace.wait()
            throw Self.busy(.busy(waiting: waiting))
        } catch {
            if error.marksFile {
                counters.countFailed()
                do {
                    try cache.markFailed(path: request.asset.path, mtime: request.mtime, fileSize: request.file.size)
                } catch let markError {
                    logger.warning("could not write a fail/ marker", metadata: ["error": "\(markError)"])
                }
            }
            logger.notice("no image for an asset", metadata: ["asset": "\(id)", "reason": "\(error)"])
            switch error {
            case .undecodable: throw unavailable(id, words.undecodable)
            case .workerFailed(let reason): throw unavailable(id, words.workerFailed(reason))
            default: throw unavailable(id, error.description)
            }
        }
        // Refused before it is encoded: the reply's size is documented, and clients stop there.
        let encoded = (made.bytes.count + 2) / 3 * 4
        guard encoded <= RequestImageReply.maximumDataBytes else {
            throw unavailable(id, "the image is \(encoded) bytes as base64, more than a reply carries "
                              + "(\(RequestImageReply.maximumDataBytes)); ask for jpeg or a smaller box, "
                              + "or read the original with OpenOriginal")
        }
        return made
    }

    private func reply(_ made: MadeImage, degraded: Bool) -> DeliveredImage {
        DeliveredImage(format: made.format, width: made.width, height: made.height, degraded: degraded,
                       source: made.usedEmbedded ? .embedded : .decoded, orientation: 1, bytes: made.bytes)
    }

    private func reply(_ cached: CachedThumbnail, _ request: Request) -> DeliveredImage {
        let geometry = ImageGeometry(width: cached.width, height: cached.height)
        return DeliveredImage(format: .png, width: cached.width, height: cached.height,
                              degraded: geometry.isSmaller(than: request.expected), source: .cache,
                              orientation: 1, bytes: cached.png)
    }

    private func unavailable(_ id: String, _ reason: String) -> VarlinkError {
        VarlinkError(LibraryInterface.Error.imageUnavailable, parameters: ImageUnavailableError(id: id, reason: reason))
    }
}
