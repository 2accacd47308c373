import Logging
import Synchronization

/// Keeps every line a logger writes, for tests that assert what the daemon decided and said.
final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger that records here at `level` and above.
    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "photod-test") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line so far, one per message: the message, then each metadata field as `key=value`.
    var all: [String] { lines.withLock { $0 } }

    /// Every line so far, joined by newlines.
    var text: String { all.joined(separator: "\n") }

    /// True when some line so far contains `fragment`.
    func contains(_ fragment: String) -> Bool {
        lines.withLock { $0.contains { $0.contains(fragment) } }
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            recorder.append(([event.message.description] + fields).joined(separator: " "))
        }
    }
}
