import Logging
import LogLines
import Synchronization

/// Writes the machine's log lines through a `LogBudget` per kind of line and app, so that a
/// program on the bus forging clicks, or an app asking in a loop, writes a few lines and a count
/// of the rest rather than one line each.
final class NotifierLogGate: Sendable {
    /// Budgets kept at most; past it, every other line shares one, which keeps the gate's
    /// memory bounded whatever the apps and senders.
    static let maximumBudgets = 512
    let logger: Logger
    let linesPerWindow: Int
    let window: Duration
    private let budgets = Mutex<[String: LogBudget]>([:])
    private let shared: LogBudget

    /// A gate writing to `logger`, `linesPerWindow` lines of each kind and app every `window`.
    init(logger: Logger, linesPerWindow: Int = 3, window: Duration = .seconds(60)) {
        self.logger = logger
        self.linesPerWindow = linesPerWindow
        self.window = window
        self.shared = LogBudget(linesPerWindow: linesPerWindow, window: window)
    }

    /// Logs `entry` if its budget allows.
    func log(_ entry: NotifierLog) {
        budget(for: entry).log(logger, entry.level.swiftLog, "\(entry.message)",
                               metadata: entry.metadata.mapValues { .string($0) })
    }

    /// The budget of the line's kind (its message) and app.
    private func budget(for entry: NotifierLog) -> LogBudget {
        let key = entry.message + "\u{0}" + (entry.metadata["uid"] ?? "") + "\u{0}" + (entry.metadata["app"] ?? "")
        return budgets.withLock { budgets in
            if let budget = budgets[key] { return budget }
            guard budgets.count < Self.maximumBudgets else { return shared }
            let budget = LogBudget(linesPerWindow: linesPerWindow, window: window)
            budgets[key] = budget
            return budget
        }
    }
}
