import Glibc
import Posix
import Synchronization
import ThumbnailProtocol

/// One running `photod-thumbnailer`: a request goes out with the image's descriptor, a
/// response comes back, within a time limit or the process is killed.
///
/// Calls block; the pool runs them on its own threads, one request per process at a time.
final class ThumbnailerProcess: Sendable {
    let pid: Int32
    /// The worker's first words: its libvips version and the loaders it uses.
    let hello: String
    private let socket: Int32
    private let decoder: Mutex<ThumbnailFrameDecoder<ThumbnailResponse>>
    private let ended = Mutex<(text: String, exit: WorkerExit?)?>(nil)

    private init(pid: Int32, socket: Int32, hello: String, decoder: ThumbnailFrameDecoder<ThumbnailResponse>) {
        self.pid = pid
        self.socket = socket
        self.hello = hello
        self.decoder = Mutex(decoder)
    }

    /// Starts a worker and waits (at most `timeout` seconds) for its hello, which it sends once
    /// its sandbox is in place.
    static func start(executable: String, arguments: [String], environment: [String], timeout: Int)
        throws(ImageMakingError) -> ThumbnailerProcess {
        let spawned: SpawnedWorker
        do {
            spawned = try WorkerSpawn.start(executable: executable, arguments: arguments, environment: environment)
        } catch {
            throw .unavailable("the image worker \(executable) cannot be started: \(error)")
        }
        var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
        do {
            let hello = try Self.receive(socket: spawned.socket, decoder: &decoder, deadline: Self.deadline(timeout))
            guard hello.id == 0, hello.status == .ok else { throw ImageMakingError.unavailable("no hello") }
            return ThumbnailerProcess(pid: spawned.pid, socket: spawned.socket, hello: hello.message, decoder: decoder)
        } catch {
            kill(spawned.pid, SIGKILL)
            close(spawned.socket)
            let exit = WorkerSpawn.wait(spawned.pid)
            throw .unavailable("the image worker \(executable) did not start (\(exit)): \(error)")
        }
    }

    /// Sends one request with the image's descriptor and waits for its answer, at most
    /// `timeout` seconds; past that the worker is killed. Any failure but a decode error leaves
    /// this process dead (`isAlive` false).
    func run(_ request: ThumbnailRequest, fileDescriptor: Int32, timeout: Int) throws(ImageMakingError) -> ThumbnailResponse {
        do {
            try FrameSocket.send(request.encode(), on: socket, passing: fileDescriptor)
        } catch {
            throw .workerLost(stop(because: "the image worker could not be sent the request (\(error))").text)
        }
        do throws(ReceiveError) {
            let response = try decoder.withLock { decoder throws(ReceiveError) in
                try Self.receive(socket: socket, decoder: &decoder, deadline: Self.deadline(timeout))
            }
            guard response.id == request.id else {
                throw ReceiveError.protocolViolation("an answer to request \(response.id), not \(request.id)")
            }
            return response
        } catch .timedOut {
            throw .workerFailed(stop(because: "the image took longer than \(timeout) s to decode; its worker was stopped").text)
        } catch let error {
            let ending = stop(because: "the image worker failed on this file: \(error)")
            // A crash while decoding is the file's doing; a kill from outside is not.
            throw ending.exit?.crashed == true ? .workerFailed(ending.text) : .workerLost(ending.text)
        }
    }

    /// Whether an idle worker can take a request: nothing may be waiting on its socket, since
    /// a worker says nothing between requests. End of file there means it exited (after an
    /// out-of-memory answer it exits on purpose, to be replaced by a fresh process).
    var isReady: Bool {
        guard isAlive else { return false }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    /// False once the process was stopped or found dead.
    var isAlive: Bool { ended.withLock { $0 == nil } }

    /// Ends the worker and reaps it: SIGKILL, so a hanging one ends too; a process that had
    /// already died keeps the signal it died of. Returns `reason` with how the process ended.
    @discardableResult
    func stop(because reason: String = "stopped") -> (text: String, exit: WorkerExit?) {
        ended.withLock { ended in
            if let ended { return ended }
            kill(pid, SIGKILL)
            close(socket)
            let exit = WorkerSpawn.wait(pid)
            let result = (text: "\(reason) (worker \(exit))", exit: Optional(exit))
            ended = result
            return result
        }
    }

    /// Why a response did not arrive.
    enum ReceiveError: Error, CustomStringConvertible {
        case timedOut
        case closed
        case protocolViolation(String)
        case system(String)

        var description: String {
            switch self {
            case .timedOut: "no answer in time"
            case .closed: "it ended without an answer"
            case .protocolViolation(let what): "it broke the protocol: \(what)"
            case .system(let what): what
            }
        }
    }

    private static func deadline(_ seconds: Int) -> ContinuousClock.Instant {
        .now + .seconds(seconds)
    }

    /// Reads until one whole response is decoded; a second one in the same read would mean a
    /// confused worker, which is as good as a dead one.
    private static func receive(socket: Int32, decoder: inout ThumbnailFrameDecoder<ThumbnailResponse>,
                                deadline: ContinuousClock.Instant) throws(ReceiveError) -> ThumbnailResponse {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .timedOut }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system(SystemCallError("poll", errno: errno).description)
            }
            if ready == 0 { continue }
            let chunk: ReceivedChunk
            do {
                chunk = try FrameSocket.receive(on: socket, capacity: 256 << 10, maxDescriptors: 0)
            } catch {
                throw .system("\(error)")
            }
            guard !chunk.bytes.isEmpty else { throw .closed }
            let frames: [ThumbnailResponse]
            do {
                frames = try decoder.feed(chunk.bytes)
            } catch {
                throw .protocolViolation("\(error)")
            }
            if frames.count > 1 { throw .protocolViolation("\(frames.count) answers to one request") }
            if let frame = frames.first { return frame }
        }
    }
}
