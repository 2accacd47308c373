import Logging
import Synchronization

/// Lets through at most `linesPerWindow` log lines per window, and counts the rest.
///
/// A client can make the server refuse or close connections as fast as it can connect; without a
/// budget, each of those lines would cost disk and bury everything else in the journal. The first
/// line of a window reports how many were held back in the windows before it.
public final class LogBudget: Sendable {
    /// What the caller should do with one line.
    package enum Verdict: Equatable, Sendable {
        /// Log it; `suppressed` lines were held back since the last one logged.
        case log(suppressed: Int)
        /// Leave it out; it has been counted.
        case suppress
    }

    private struct State {
        var windowStart: ContinuousClock.Instant?
        var linesInWindow = 0
        var suppressed = 0
    }

    let linesPerWindow: Int
    let window: Duration
    private let state = Mutex(State())

    /// A budget of `linesPerWindow` lines every `window`.
    public init(linesPerWindow: Int = 10, window: Duration = .seconds(10)) {
        self.linesPerWindow = linesPerWindow
        self.window = window
    }

    /// Spends one line of the budget at `now`.
    package func spend(at now: ContinuousClock.Instant = .now) -> Verdict {
        self.state.withLock { state in
            if let start = state.windowStart, now - start < self.window {
                guard state.linesInWindow < self.linesPerWindow else {
                    state.suppressed += 1
                    return .suppress
                }
            } else {
                state.windowStart = now
                state.linesInWindow = 0
            }
            state.linesInWindow += 1
            defer { state.suppressed = 0 }
            return .log(suppressed: state.suppressed)
        }
    }
}

extension LogBudget {
    /// Logs `message` if the budget allows, noting how many lines were held back before it.
    public func log(_ logger: Logger, _ level: Logger.Level, _ message: Logger.Message, metadata: Logger.Metadata = [:]) {
        guard case .log(let suppressed) = self.spend() else { return }
        var metadata = metadata
        if suppressed > 0 {
            metadata["suppressed"] = "\(suppressed)"
        }
        logger.log(level: level, message, metadata: metadata)
    }
}
