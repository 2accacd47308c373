import CSystemd
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// A swift-log backend that writes structured entries to the systemd journal (`sd_journal_sendv`):
/// `MESSAGE`, `PRIORITY`, the source location, and each metadata key as a `PHOTOD_…` field
/// (`path` becomes `PHOTOD_PATH`), so `journalctl --user -u photod PHOTOD_APP=…` can filter.
///
/// `MESSAGE` is what journalctl prints as the line, so it is escaped and capped (`LogText`);
/// the `PHOTOD_…` fields keep the exact bytes, for a program to match on.
public struct JournalLogHandler: LogHandler {
    /// Metadata added to every entry of this handler.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    private let label: String

    /// A handler for loggers labelled `label`.
    public init(label: String) { self.label = label }

    /// Whether standard error is connected to the journal (`JOURNAL_STREAM` names its device and
    /// inode), the case in which systemd wants structured entries instead of plain lines.
    public static func standardErrorIsJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Sends one entry, with the handler's and the event's metadata as fields.
    public func log(event: LogEvent) {
        Self.send(fields(for: event))
    }

    /// The journal fields of one entry.
    public func fields(for event: LogEvent) -> [String] {
        var fields = [
            "MESSAGE=\(LogText.message(event.message))",
            "PRIORITY=\(Self.priority(event.level))",
            "SYSLOG_IDENTIFIER=photod",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
            "PHOTOD_LOGGER=\(label)",
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append("PHOTOD_\(Self.fieldName(key))=\(value)")
        }
        return fields
    }

    /// The syslog priority of a swift-log level.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// A journal field name: upper-case letters, digits and underscores only.
    public static func fieldName(_ key: String) -> String {
        String(key.uppercased().unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
    }

    private static func send(_ fields: [String]) {
        // Each field is copied into memory of its own that stays valid until the call returns.
        let copies = fields.map { field -> (UnsafeMutableRawPointer, Int) in
            let bytes = Array(field.utf8)
            let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) }
            }
            return (memory, bytes.count)
        }
        defer { for (memory, _) in copies { memory.deallocate() } }
        let vectors = copies.map { iovec(iov_base: $0.0, iov_len: $0.1) }
        _ = vectors.withUnsafeBufferPointer { pointer in
            sd_journal_sendv(pointer.baseAddress, Int32(pointer.count))
        }
    }
}
