import Logging
import NIOPosix
import PhotoAPI
import ThumbnailProtocol

/// The sandboxed image workers: at most `maxWorkers` processes, each making one image at a time
/// on a thread of the pool's own, started when needed, replaced when one crashes or hangs, and
/// stopped when idle for a while so they hold no memory photod does not use. Requests waiting
/// for a worker are served by caller (`ImageQueue`): the owner's first, then the apps' in turn,
/// so an app's flood neither delays the owner nor starves another app.
actor ThumbnailerPool: ImageMaking {
    /// How to run the worker.
    struct Launch: Sendable {
        /// The executable, or why there is none.
        var executable: Result<String, ImageMakingError>
        var arguments: [String] = []
        var environment: [String] = []
        /// Seconds a worker may take to start or to make one image.
        var timeout: Int
    }

    let maxWorkers: Int
    private let launch: Launch
    private let threads: NIOThreadPool
    private let logger: Logger
    private var idle: [(process: ThumbnailerProcess, since: ContinuousClock.Instant)] = []
    /// Processes alive, busy or idle.
    private var alive = 0
    /// Requests holding a slot (at most `maxWorkers`), and those waiting for one, by caller.
    private var busy = 0
    private var waiting = ImageQueue<CheckedContinuation<Void, Never>>(perCaller: ThumbnailerPool.waitingPerCaller)
    /// Requests one caller may have waiting for a worker; more are refused as busy.
    static let waitingPerCaller = 16
    private var nextRequest: UInt64 = 1
    private(set) var restarts = 0
    private var stopped = false

    /// A pool that runs workers as `launch` says, at most `maxWorkers` at once.
    init(launch: Launch, maxWorkers: Int, logger: Logger) {
        self.launch = launch
        self.maxWorkers = max(1, maxWorkers)
        self.logger = logger
        self.threads = NIOThreadPool(numberOfThreads: self.maxWorkers)
        self.threads.start()
    }

    /// Workers running now.
    var workerCount: Int { alive }

    /// Requests waiting for a worker now, all callers together.
    var waitingCount: Int { waiting.count }

    nonisolated func make(_ job: ImageJob, fileDescriptor: Int32, for caller: ImageCaller)
        async throws(ImageMakingError) -> MadeImage {
        let request = try await takeSlot(job, for: caller)
        var used: ThumbnailerProcess?
        let outcome: Result<ThumbnailResponse, ImageMakingError>
        do {
            let worker = try await acquireProcess()
            used = worker
            let timeout = launch.timeout
            outcome = .success(try await threads.runIfActive {
                try worker.run(request, fileDescriptor: fileDescriptor, timeout: timeout)
            })
        } catch let error as ImageMakingError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(.unavailable("the image workers are shutting down (\(error))"))
        }
        await giveBack(used, after: outcome)
        return try Self.image(from: outcome.get(), job: job)
    }

    /// Stops every worker; later requests fail at once.
    func shutdown() async {
        stopped = true
        for entry in idle { entry.process.stop() }
        idle.removeAll()
        let released = waiting.drain()
        // Each goes on as if handed a slot, and finds the pool stopped.
        busy += released.count
        for waiter in released { waiter.resume() }
        try? await threads.shutdownGracefully()
    }

    /// Stops workers idle for longer than `limit`.
    func stopIdle(longerThan limit: Duration) {
        let now = ContinuousClock.now
        let (stale, fresh) = (idle.filter { now - $0.since > limit }, idle.filter { now - $0.since <= limit })
        idle = fresh
        for entry in stale {
            entry.process.stop()
            alive -= 1
        }
        if !stale.isEmpty { logger.debug("stopped idle image workers", metadata: ["workers": "\(stale.count)"]) }
    }

    // MARK: - Slots and processes

    /// A slot for `caller`'s request: at once when one is free and no one waits, else in its
    /// caller's queue until `giveBack` hands it one.
    private func takeSlot(_ job: ImageJob, for caller: ImageCaller) async throws(ImageMakingError) -> ThumbnailRequest {
        if stopped || (busy < maxWorkers && waiting.isEmpty) {
            busy += 1
        } else {
            guard waiting.waiting(caller) < waiting.perCaller else { throw .busy(waiting: waiting.waiting(caller)) }
            await withCheckedContinuation { continuation in
                _ = waiting.enqueue(continuation, for: caller)
            }
        }
        defer { nextRequest += 1 }
        return ThumbnailRequest(
            id: nextRequest, mode: job.mode == .embedded ? .embedded : .full, fit: job.fill ? .fill : .inside,
            format: job.format == .png ? .png : .jpeg, wantsCacheCopy: job.cacheCopy,
            width: UInt32(job.width), height: UInt32(job.height), jpegQuality: 85)
    }

    private func acquireProcess() async throws(ImageMakingError) -> ThumbnailerProcess {
        if stopped { throw .unavailable("photod is stopping") }
        while let entry = idle.popLast() {
            if entry.process.isReady { return entry.process }
            let ending = entry.process.stop(because: "an idle image worker ended")
            alive -= 1
            logger.debug("replacing an image worker that ended while idle", metadata: ["reason": "\(ending.text)"])
        }
        let launch = self.launch
        let executable = try launch.executable.get()
        alive += 1
        do {
            let process = try await threads.runIfActive {
                try ThumbnailerProcess.start(executable: executable, arguments: launch.arguments,
                                             environment: launch.environment, timeout: launch.timeout)
            }
            logger.debug("image worker started", metadata: ["pid": "\(process.pid)", "worker": "\(process.hello)"])
            return process
        } catch let error as ImageMakingError {
            alive -= 1
            logger.error("image worker could not start", metadata: ["error": "\(error)"])
            throw error
        } catch {
            alive -= 1
            throw .unavailable("the image workers are shutting down (\(error))")
        }
    }

    private func giveBack(_ process: ThumbnailerProcess?, after outcome: Result<ThumbnailResponse, ImageMakingError>) {
        if case .failure(let error) = outcome, error.lostWorker { countRestart(error) }
        if let process {
            if process.isAlive, !stopped {
                idle.append((process, .now))
            } else {
                process.stop()
                alive -= 1
            }
        }
        // The slot goes straight to the next waiter, so a request arriving now cannot take it first.
        if let next = waiting.next() {
            next.resume()
        } else {
            busy -= 1
        }
    }

    private func countRestart(_ error: ImageMakingError) {
        restarts += 1
        logger.warning("image worker stopped; the next request starts a new one", metadata: ["reason": "\(error)"])
    }

    /// The made image, or the worker's refusal as an error.
    private static func image(from response: ThumbnailResponse, job: ImageJob) throws(ImageMakingError) -> MadeImage {
        switch response.status {
        case .ok:
            return MadeImage(bytes: response.image, format: response.format == .png ? .png : .jpeg,
                             width: Int(response.width), height: Int(response.height),
                             usedEmbedded: response.usedEmbedded, cachePNG: response.cache.isEmpty ? nil : response.cache)
        case .undecodable:
            throw .undecodable("the file could not be decoded: \(response.message)")
        case .badRequest:
            throw .unavailable("the image worker refused the request: \(response.message)")
        }
    }
}
