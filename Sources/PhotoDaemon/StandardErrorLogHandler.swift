import Foundation
import Logging
import Systemd

/// Plain log lines on standard error (photod outside systemd): `time level label: message
/// key=value …`, one line per entry whatever an app, a photo or a path put into it, since the
/// message and every value go through `LogText` (swift-log's `StreamLogHandler` writes them raw).
struct StandardErrorLogHandler: LogHandler {
    /// Metadata added to every entry of this handler.
    var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for loggers labelled `label`, writing each line with `write` (standard error by default).
    init(label: String, write: @escaping @Sendable (String) -> Void = Self.writeToStandardError) {
        self.label = label
        self.write = write
    }

    /// One metadata value of this handler.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    func log(event: LogEvent) {
        write(line(for: event))
    }

    /// The line for one entry, newline included.
    func line(for event: LogEvent) -> String {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let time = Date().formatted(.iso8601)
        return "\(time) \(event.level) \(label): \(LogText.message(event.message))\(LogText.metadata(merged))\n"
    }

    /// Writes the whole line with one write(2), so lines of concurrent loggers do not interleave.
    @Sendable static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data(line.utf8))
    }
}
