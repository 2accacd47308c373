import Logging
import NIOPosix
import PhotoAPI
import ThumbnailProtocol

/// The sandboxed image workers: at most `maxWorkers` processes, each making one image at a time
/// on a thread of the pool's own, started when needed, replaced when one crashes or hangs, and
/// stopped when idle for a while so they hold no memory photod does not use. Requests waiting
/// for a worker are served by caller (`ImageQueue`): the owner's first, then the apps' in turn,
/// so an app's flood neither delays the owner nor starves another app. With more than one
/// worker, apps together use one fewer than all: an app's decode of a 12-megapixel photo takes
/// a worker for a fifth of a second, and the owner's thumbnail should not wait behind it.
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
    /// Workers waiting for a job; `forApps` ones run at a lower CPU priority (`--for-apps`).
    private var idle: [(process: ThumbnailerProcess, since: ContinuousClock.Instant, forApps: Bool)] = []
    /// Processes alive, busy or idle.
    private var alive = 0
    /// Requests holding a slot (at most `maxWorkers`), those of apps among them (at most
    /// `appSlots`), and those waiting for one, by caller.
    private var busy = 0
    private var busyApps = 0
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

    /// The idle workers' process ids, and which serve apps.
    var idleWorkers: [(pid: Int32, forApps: Bool)] { idle.map { ($0.process.pid, $0.forApps) } }

    /// Slots held now: by anyone, and by apps.
    var slotsHeld: (all: Int, apps: Int) { (busy, busyApps) }

    /// Slots apps may hold together: all but one kept for the owner, when there are two or more.
    var appSlots: Int { maxWorkers > 1 ? maxWorkers - 1 : 1 }

    /// Requests waiting for a worker now, all callers together.
    var waitingCount: Int { waiting.count }

    nonisolated func make(_ job: ImageJob, fileDescriptor: Int32, for caller: ImageCaller)
        async throws(ImageMakingError) -> MadeImage {
        let request = try await takeSlot(job, for: caller)
        if Task.isCancelled {
            // Its client hung up while it waited: the slot goes to the next request, undecoded.
            await giveBack(nil, after: .failure(Self.hungUp), heldBy: caller)
            throw Self.hungUp
        }
        var used: ThumbnailerProcess?
        let outcome: Result<ThumbnailResponse, ImageMakingError>
        do {
            let worker = try await acquireProcess(forApps: caller != .owner)
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
        await giveBack(used, after: outcome, heldBy: caller)
        return try Self.image(from: outcome.get(), job: job)
    }

    /// What a request whose client hung up while it waited ends with.
    static let hungUp = ImageMakingError.unavailable("the client hung up before a worker was free")

    /// Stops every worker; later requests fail at once.
    func shutdown() async {
        stopped = true
        for entry in idle { entry.process.stop() }
        idle.removeAll()
        let apps = waiting.count - waiting.waiting(.owner)
        let released = waiting.drain()
        // Each goes on as if handed a slot, and finds the pool stopped.
        busy += released.count
        busyApps += apps
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

    /// A slot for `caller`'s request: at once when one is free to it and no one it would pass
    /// waits, else in its caller's queue until `giveBack` hands it one.
    private func takeSlot(_ job: ImageJob, for caller: ImageCaller) async throws(ImageMakingError) -> ThumbnailRequest {
        let free = switch caller {
        case .owner: busy < maxWorkers && waiting.waiting(.owner) == 0
        case .app: busy < maxWorkers && busyApps < appSlots && waiting.isEmpty
        }
        if stopped || free {
            busy += 1
            if caller != .owner { busyApps += 1 }
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

    /// An idle worker of the kind asked for, or a new one. An app's job runs in a worker at a
    /// lower CPU priority (nice 10), so that its decodes yield the processor to the owner's and
    /// to photod itself; a worker never raises its priority again, so the two kinds stay apart.
    private func acquireProcess(forApps: Bool) async throws(ImageMakingError) -> ThumbnailerProcess {
        if stopped { throw .unavailable("photod is stopping") }
        while let index = idle.lastIndex(where: { $0.forApps == forApps }) {
            let entry = idle.remove(at: index)
            if entry.process.isReady { return entry.process }
            let ending = entry.process.stop(because: "an idle image worker ended")
            alive -= 1
            logger.debug("replacing an image worker that ended while idle", metadata: ["reason": "\(ending.text)"])
        }
        // At most `maxWorkers` processes: an idle one of the other kind makes room.
        if alive >= maxWorkers, let index = idle.indices.first {
            idle.remove(at: index).process.stop()
            alive -= 1
        }
        let launch = self.launch
        let executable = try launch.executable.get()
        let arguments = forApps && !launch.arguments.contains("--background")
            ? launch.arguments + ["--for-apps"] : launch.arguments
        alive += 1
        do {
            let process = try await threads.runIfActive {
                try ThumbnailerProcess.start(executable: executable, arguments: arguments,
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

    private func giveBack(_ process: ThumbnailerProcess?, after outcome: Result<ThumbnailResponse, ImageMakingError>,
                          heldBy caller: ImageCaller) {
        if case .failure(let error) = outcome, error.lostWorker { countRestart(error) }
        if let process {
            if process.isAlive, !stopped {
                idle.append((process, .now, caller != .owner))
            } else {
                process.stop()
                alive -= 1
            }
        }
        // The slot goes straight to the next waiter it may serve, so a request arriving now
        // cannot take it first.
        busy -= 1
        if caller != .owner { busyApps -= 1 }
        // The owner's waiters go first, so the next is an app's only when the owner has none.
        let toApp = waiting.waiting(.owner) == 0
        if busy < maxWorkers, let next = waiting.next(apps: busyApps < appSlots) {
            busy += 1
            if toApp { busyApps += 1 }
            next.resume()
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
