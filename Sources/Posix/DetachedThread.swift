#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks (a poll loop, a waitpid), outside Swift's
/// concurrency pool, without Foundation's `Thread`.
public enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (at most 15 bytes are kept); false
    /// when no thread could be made.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, runBody, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The new thread's start: takes back the body `start` retained, and runs it.
    private static let runBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
        nameThisThread(body.name)
        body.run()
        return nil
    }

    /// Names the calling thread for ps and top, as pthread_setname_np would (which Swift does
    /// not import without _GNU_SOURCE): the kernel keeps 15 bytes of it.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
    }

    /// What the new thread runs, boxed to pass through pthread_create's one pointer.
    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

extension DetachedThread {
    /// Runs `body` on a new detached thread and returns what it returns, so blocking work (a
    /// large copy) holds no thread of Swift's pool; runs it here when no thread can be made.
    public static func result<Value: Sendable>(name: String, _ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let started = start(name: name) { continuation.resume(returning: body()) }
            if !started { continuation.resume(returning: body()) }
        }
    }
}
