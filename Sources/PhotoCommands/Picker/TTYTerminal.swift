import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import SystemPackage

/// The controlling terminal (`/dev/tty`) in raw mode: the picker's real `PickerTerminal`.
///
/// It works on /dev/tty, not standard input and output, so the picker runs the same when
/// photoctl's output goes to a pager or a pipe. The terminal is put back on every way out:
/// `end()` (the runner's `defer`, after an error too) and the signals that would end photoctl
/// (`TerminalRestore`); Ctrl-C and Ctrl-Z arrive as keys in raw mode, so they never stop it halfway.
final class TTYTerminal: PickerTerminal {
    /// The terminal device: /dev/tty, or a pseudo-terminal in tests.
    private let path: String
    /// Descriptor for writing and for the terminal's settings.
    private let descriptor: Int32
    /// Settings to put back.
    private let saved: termios
    /// Whether `begin` and `end` ran, and the write end of the pipe that wakes the reader
    /// (closed by `end`, so the reader stops at once instead of reading a key meant for what follows).
    private let state = Mutex((ended: false, began: false, wake: Int32(-1)))

    /// Opens the controlling terminal (or the terminal at `path`); nil when there is none.
    static func controlling(path: String = "/dev/tty") -> TTYTerminal? {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            close(descriptor)
            return nil
        }
        return TTYTerminal(path: path, descriptor: descriptor, saved: settings)
    }

    private init(path: String, descriptor: Int32, saved: termios) {
        self.path = path
        self.descriptor = descriptor
        self.saved = saved
    }

    /// Columns and rows from the kernel; 80 × 24 when it does not say.
    func size() -> (columns: Int, rows: Int) { Self.size(of: descriptor) }

    /// The size of the terminal open as `descriptor`.
    private static func size(of descriptor: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes all of `text`, through interrupted and partial writes.
    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Raw mode (no echo, no line editing, no signals from keys), then the alternate screen.
    func begin() throws {
        var raw = saved
        cfmakeraw(&raw)
        // cfmakeraw also turns off output processing; that is wanted (ScreenText writes "\r\n").
        TerminalRestore.install(descriptor: descriptor, settings: saved, leave: ScreenText.leave)
        guard tcsetattr(descriptor, TCSAFLUSH, &raw) == 0 else {
            let failure = Errno(rawValue: errno)
            TerminalRestore.uninstall()
            throw PickerError.terminal("cannot put the terminal in raw mode: \(failure)")
        }
        state.withLock { $0.began = true }
        write(ScreenText.enter)
    }

    /// Leaves the alternate screen, puts the settings back, stops the reader and closes.
    func end() {
        let (first, wake) = state.withLock { current -> (Bool, Int32) in
            defer { current.ended = true; current.wake = -1 }
            return (!current.ended, current.wake)
        }
        guard first else { return }
        if wake >= 0 { close(wake) }
        if state.withLock({ $0.began }) {
            write(ScreenText.leave)
            var settings = saved
            _ = tcsetattr(descriptor, TCSAFLUSH, &settings)
        }
        TerminalRestore.uninstall()
        close(descriptor)
    }

    /// Reads on a Dispatch thread of its own (never one of Swift's cooperative pool), through
    /// a descriptor of its own that it closes when it stops: at the terminal's end, or as soon
    /// as `end` closes the wake pipe's other end.
    func startReading(_ received: @escaping @Sendable ([UInt8]?) -> Void) {
        var ends: [Int32] = [-1, -1]
        let reader = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard reader >= 0, pipe(&ends) == 0 else {
            if reader >= 0 { close(reader) }
            return received(nil)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let alreadyEnded = state.withLock { current -> Bool in
            if !current.ended { current.wake = ends[1] }
            return current.ended
        }
        if alreadyEnded { close(ends[1]) }
        let wakeReader = ends[0]
        DispatchQueue(label: "photoctl.picker.terminal").async {
            Self.readLoop(reader, until: wakeReader, into: received)
            close(reader)
            close(wakeReader)
        }
    }

    /// The reading loop: each read's bytes, an empty read when the window's size changed
    /// (polled while no key comes), nil at the terminal's end; stops when `wake` says so.
    private static func readLoop(_ reader: Int32, until wake: Int32, into received: @Sendable ([UInt8]?) -> Void) {
        var lastSize = size(of: reader)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var pollers = [pollfd(fd: reader, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pollers, 2, 100)
            if ready < 0 && errno != EINTR { return received(nil) }
            if pollers[1].revents != 0 { return }
            guard ready > 0 else {
                let now = size(of: reader)
                if now != lastSize { lastSize = now; received([]) }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return received(nil) }
            received(Array(buffer[0..<count]))
        }
    }
}

/// write(2), named apart from `TTYTerminal.write`, which would hide it inside the class.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Why the picker could not run.
enum PickerError: Error, CustomStringConvertible {
    case terminal(String)

    /// The message for the owner.
    var description: String {
        switch self {
        case .terminal(let text): "The picker needs a terminal: \(text)."
        }
    }
}
