import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Line input from the terminal without blocking the async threads.
enum Terminal {
    /// The longest answer kept; the rest of a longer line is read and dropped.
    static let maxAnswerBytes = 4096

    /// The terminal's height in lines (standard output's), 24 when it does not say.
    static func rows() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    /// Drops what was typed but not yet read. Called once a new question is on the screen and
    /// before its prompt invites an answer: keys pressed while nothing was asked, or meant for
    /// the previous question, must not answer one the owner has not read. (Not again when the
    /// same question is asked after an invalid answer: what follows was typed having read it.)
    static func discardTypedAhead() {
        if isatty(STDIN_FILENO) == 1 { tcflush(STDIN_FILENO, TCIFLUSH) }
    }

    /// Asks for a typed "yes", the one answer that confirms a warning; nil at end of input.
    static func confirm(_ question: String) async -> Bool? {
        await ask(question).map { $0.lowercased() == "yes" }
    }

    /// Shows `prompt` and reads one line; nil at end of input.
    static func ask(_ prompt: String) async -> String? {
        Output.prompt(prompt)
        return await withCheckedContinuation { continuation in
            // A queue of its own gets a thread of its own from Dispatch, which adds threads while
            // one blocks: the read never holds one of the concurrency pool's few threads.
            DispatchQueue(label: "photoctl.terminal").async {
                continuation.resume(returning: readAnswer()?.trimmingWhitespace())
            }
        }
    }

    /// One line from standard input, read straight from the descriptor: a buffered reader could
    /// hold keys typed early, where discarding the terminal's input would not reach them.
    private static func readAnswer() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            if line.count < maxAnswerBytes { line.append(byte) }
        }
    }
}

/// Watches the terminal while the prompt waits for requests, with no question asked: Ctrl-D
/// there (end of input) ends the prompt. Keys typed meanwhile are read and dropped, as
/// `Terminal.discardTypedAhead` would drop them; nothing is read once a question is asked.
final class IdleInput: Sendable {
    /// Whether the prompt waits with no question asked; read and changed under the lock, so a
    /// line is never read after `busy()` returned.
    private let idle = Mutex(false)
    private let ended: @Sendable () -> Void

    /// Calls `ended` (on a thread of its own) once input ends while the prompt is idle.
    init(ended: @escaping @Sendable () -> Void) {
        self.ended = ended
        let thread = DispatchQueue(label: "photoctl.idle-input")
        thread.async { [self] in self.watch() }
    }

    /// Says `line` and ends photoctl with status 0: what `ended` does for the prompt, which has
    /// nothing under way while it waits.
    static func stop(_ line: String) -> Never {
        Output.line(line)
        Output.endPaging()
        exit(0)
    }

    /// The prompt waits for the next request.
    func waiting() { idle.withLock { $0 = true } }

    /// The prompt is about to ask: from now on the terminal's input is the question's.
    func busy() { idle.withLock { $0 = false } }

    /// Polls standard input; while idle, reads what is ready, and on end of input calls `ended`.
    private func watch() {
        var byte = [UInt8](repeating: 0, count: 256)
        while true {
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) >= 0 || errno == EINTR else { return }
            guard ready.revents != 0 else { continue }
            let end = idle.withLock { idle -> Bool? in
                guard idle else { return nil }
                // The terminal said a line or its end is ready: this read does not block.
                return read(STDIN_FILENO, &byte, byte.count) <= 0
            }
            if end == true { return ended() }
            // Input the question will read: wait for the prompt to be idle again.
            if end == nil { usleep(100_000) }
        }
    }
}
