#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Puts the terminal back when a signal ends photoctl while the picker has it in raw mode
/// (SIGTERM, SIGHUP, SIGQUIT, or SIGINT sent by `kill`), then lets the signal do what it would have.
///
/// A signal handler can reach nothing but globals, and may call only async-signal-safe
/// functions (tcsetattr, write, signal, raise): so the settings are copied here beforehand.
enum TerminalRestore {
    /// The signals that would end photoctl with the terminal left raw.
    static let signals: [Int32] = [SIGTERM, SIGHUP, SIGQUIT, SIGINT]

    /// Keeps what the handler restores, and installs it.
    static func install(descriptor: Int32, settings: termios, leave: String) {
        restoreDescriptor = descriptor
        restoreSettings = settings
        leaveBytes = Array(leave.utf8)
        previousHandlers = signals.map { signal($0, handleSignal) }
    }

    /// Back to the handlers photoctl had once the terminal is back.
    static func uninstall() {
        for (number, previous) in zip(signals, previousHandlers) { signal(number, previous) }
        previousHandlers = []
        restoreDescriptor = -1
    }
}

// Written only before the handlers are installed and after they are removed, on one thread.
nonisolated(unsafe) private var restoreDescriptor: Int32 = -1
nonisolated(unsafe) private var restoreSettings = termios()
nonisolated(unsafe) private var leaveBytes: [UInt8] = []
nonisolated(unsafe) private var previousHandlers: [(@convention(c) (Int32) -> Void)?] = []

/// The handler: the screen and settings back, then the signal again with its default action.
private func handleSignal(_ number: Int32) {
    if restoreDescriptor >= 0 {
        _ = leaveBytes.withUnsafeBytes { write(restoreDescriptor, $0.baseAddress, $0.count) }
        _ = tcsetattr(restoreDescriptor, TCSAFLUSH, &restoreSettings)
    }
    signal(number, SIG_DFL)
    raise(number)
}
