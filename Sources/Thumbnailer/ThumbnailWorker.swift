import Glibc
import Posix
import ThumbnailProtocol

/// The worker process: sandbox, hello, then one response per request until photod closes the socket.
public enum ThumbnailWorker {
    /// The socket photod hands over; everything else but stdio is closed at start.
    public static let socket: Int32 = 3

    /// The exit status after answering a request that ran out of memory, or after using half the
    /// CPU limit: start a fresh worker.
    public static let exhaustedStatus: Int32 = 75

    /// Runs the worker and returns its exit status: 0 when photod closed the socket.
    /// `--background`: at the lowest CPU and I/O priority (photod's cache prefill); `--for-apps`:
    /// at nice 10 (apps' images, which yield to the owner's).
    public static func main(program: String, arguments: [String] = []) -> Int32 {
        var status = stat()
        guard fstat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            return fail("fd 3 must be the socket photod passes", status: 64)
        }
        let landlock: Landlock.Outcome
        do {
            try ProcessLimits.apply(memoryMiB: environmentInt("PHOTOD_THUMBNAILER_MEMORY_MB")
                ?? ProcessLimits.defaultMemoryMiB)
            QuietStandardError.unlessWritable()
            if arguments.contains("--background") {
                try ProcessLimits.lowerPriority()
            } else if arguments.contains("--for-apps") {
                try ProcessLimits.lowerPriority(nice: ProcessLimits.appsNice)
            }
            try VipsRuntime.start(program: program)
            PeakMemory.prepare()
            try ProcessLimits.forbidDumping()
            // The seccomp filter sets no_new_privs, which Landlock needs, before it loads.
            landlock = try Sandbox.apply(pid: getpid())
        } catch {
            return fail(error.description, status: 71)
        }
        var hello = "photod-thumbnailer \(VipsRuntime.version); \(landlock.summary); "
            + "loaders: \(VipsRuntime.loaders.joined(separator: " "))"
        // Only after the whole sandbox is in place: the probe can do no more than a decoder could.
        if arguments.first == SandboxProbe.flag {
            hello += SandboxProbe.run(arguments: Array(arguments.dropFirst()))
        }
        do {
            try FrameSocket.send(ThumbnailResponse.hello(hello, peakRSSKiB: PeakMemory.kib()).encode(), on: socket)
            // Start-up's code (libvips registering its few hundred types, the modules, the
            // sandbox) never runs again: unmapped, it stays out of every request's peak.
            CodePages.release()
            return try serve()
        } catch {
            // photod went away mid-answer or broke framing: nothing to tell it, and stderr stays quiet.
            return 1
        }
    }

    /// Answers requests in order; each request's descriptor is the next one received.
    private static func serve() throws -> Int32 {
        var decoder = ThumbnailFrameDecoder<ThumbnailRequest>()
        var files: [Int32] = []
        defer { files.forEach { close($0) } }
        while true {
            let chunk = try FrameSocket.receive(on: socket)
            if chunk.bytes.isEmpty { return 0 }
            files += chunk.descriptors
            let requests: [ThumbnailRequest]
            do {
                requests = try decoder.feed(chunk.bytes)
            } catch {
                let answer = ThumbnailResponse.failure(id: 0, status: .badRequest, message: error.description,
                                                       peakRSSKiB: PeakMemory.kib())
                try FrameSocket.send(answer.encode(), on: socket)
                return 2
            }
            for request in requests {
                let response: ThumbnailResponse
                if files.isEmpty {
                    response = .failure(id: request.id, status: .badRequest, message: "request came without a file",
                                        peakRSSKiB: PeakMemory.kib())
                } else {
                    let file = files.removeFirst()
                    response = respond(to: request, file: file)
                    close(file)
                }
                try FrameSocket.send(response.encode(), on: socket)
                // After hitting RLIMIT_AS, libvips' threads and malloc arenas stay half-built (a next
                // request fails to start a thread): a fresh process is the reliable recovery.
                if response.status == .undecodable, RenderError.isExhaustion(response.message) { return exhaustedStatus }
                // Well before RLIMIT_CPU's SIGXCPU: a fresh process carries on.
                if ProcessLimits.cpuSeconds() >= ProcessLimits.cpuRecycleSeconds { return exhaustedStatus }
            }
        }
    }

    private static func respond(to request: ThumbnailRequest, file: Int32) -> ThumbnailResponse {
        do throws(RenderError) {
            let result = try Renderer.render(request, file: file)
            guard ThumbnailResponse.fixedLength + result.image.count + result.cache.count
                    <= ThumbnailResponse.maxBodyLength else {
                throw RenderError("thumbnail larger than a response may carry")
            }
            return ThumbnailResponse(
                id: request.id, status: .ok, format: request.format, usedEmbedded: result.usedEmbedded,
                width: UInt32(clamping: result.width), height: UInt32(clamping: result.height),
                sourceWidth: UInt32(clamping: result.sourceWidth), sourceHeight: UInt32(clamping: result.sourceHeight),
                peakRSSKiB: PeakMemory.kib(), image: result.image, cache: result.cache)
        } catch {
            return .failure(id: request.id, status: .undecodable, message: error.message, peakRSSKiB: PeakMemory.kib())
        }
    }

    private static func environmentInt(_ name: String) -> Int? {
        getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        let line = "photod-thumbnailer: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        return status
    }
}
