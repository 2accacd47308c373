#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Plain log lines on standard error (photod or photod-notify outside systemd): `time level
/// label: message key=value …`, one line per entry whatever an app, a photo or a path put into
/// it, since the message and every value go through `LogText` (swift-log's `StreamLogHandler`
/// writes them raw).
public struct StandardErrorLogHandler: LogHandler {
    /// Metadata added to every entry of this handler.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for loggers labelled `label`, writing each line with `write` (standard error by default).
    public init(label: String, write: @escaping @Sendable (String) -> Void = Self.writeToStandardError) {
        self.label = label
        self.write = write
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    public func log(event: LogEvent) {
        write(line(for: event))
    }

    /// The line for one entry, newline included.
    public func line(for event: LogEvent) -> String {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let time = Date().formatted(.iso8601)
        return "\(time) \(event.level) \(label): \(LogText.message(event.message))\(LogText.metadata(merged))\n"
    }

    /// Writes the whole line with one write(2), so lines of concurrent loggers do not interleave.
    @Sendable public static func writeToStandardError(_ line: String) {
        Array(line.utf8).withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, start + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
