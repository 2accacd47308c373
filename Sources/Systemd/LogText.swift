import Logging
import SafeText

/// What a log line may show of a message or a metadata value: escaped with `SafeText` (so no
/// newline or escape sequence from an app, a photo or a path can forge a line or drive the
/// terminal reading the log) and capped in bytes (so no client can make one line huge).
public enum LogText {
    /// The most bytes of a message a line shows.
    public static let maximumMessageBytes = 4096
    /// The most bytes of one metadata value a plain line shows.
    public static let maximumValueBytes = 1024

    /// The message as one safe line.
    public static func message(_ message: Logger.Message) -> String {
        SafeText.escaped(message.description, maxBytes: maximumMessageBytes)
    }

    /// A metadata value as safe text.
    public static func value(_ value: Logger.Metadata.Value) -> String {
        SafeText.escaped(value.description, maxBytes: maximumValueBytes)
    }

    /// Metadata as ` key=value` pairs in key order, keys and values escaped.
    public static func metadata(_ metadata: Logger.Metadata) -> String {
        metadata.sorted { $0.key < $1.key }.map { key, value in
            " " + SafeText.escaped(key, maxBytes: 64) + "=" + Self.value(value)
        }.joined()
    }
}
