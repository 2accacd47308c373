import Foundation
import SafeText

/// Printing for people (aligned tables, lines) and for scripts (JSON): the only place photoctl
/// writes its output.
///
/// Everything printed for people is escaped here with `SafeText.escaped`, so callers pass raw
/// text: descriptions, group names, file names and what apps declare are hostile, and a control
/// character in them must never reach the terminal (title, clipboard or clear-screen sequences,
/// a newline that forges a row). JSON is written exactly as encoded; the encoder escapes
/// control characters itself.
///
/// A reader that goes away (`photoctl watch | head -1`) ends photoctl quietly with status 141,
/// as if killed by SIGPIPE like `cat` or `yes` in the same pipeline (`PhotoctlMain` ignores the
/// signal so that every write reports EPIPE instead, whoever made the write).
enum Output {
    /// The exit status after the reader of standard output or standard error went away: 128 + SIGPIPE.
    static let closedPipeStatus: Int32 = 128 + SIGPIPE

    /// Prints `value` as one JSON document.
    static func json<T: Encodable>(_ value: T) throws {
        write(try encode(value, pretty: true) + "\n", to: .standardOutput)
    }

    /// Prints `value` as one JSON object on one line, at once: one event of a stream.
    static func jsonLine<T: Encodable>(_ value: T) throws {
        write(try encode(value, pretty: false) + "\n", to: .standardOutput)
    }

    /// Prints rows under a header, each column as wide as its widest cell; the last column is not padded.
    static func table(_ header: [String], _ rows: [[String]]) {
        table(header, rows.map { $0.map(Cell.text) })
    }

    /// Prints rows of cells (a path as its bytes) under a header.
    static func table(_ header: [String], _ rows: [[Cell]]) {
        write(tableText(header, rows), to: .standardOutput)
    }

    /// The text `table` prints: every cell escaped, so it stays on its own row and in its own
    /// column, and padded by the terminal columns the escaped text takes.
    static func tableText(_ header: [String], _ rows: [[Cell]]) -> String {
        let cells = ([header.map(Cell.text)] + rows).map { row in row.map(\.shown) }
        var widths = [Int](repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TerminalWidth.of(cell))
            }
        }
        var text = ""
        for row in cells {
            for (index, cell) in row.enumerated() {
                if index > 0 { text += "  " }
                text += cell
                if index < row.count - 1, index < widths.count {
                    text += String(repeating: " ", count: widths[index] - TerminalWidth.of(cell))
                }
            }
            text += "\n"
        }
        return text
    }

    /// Prints one line for people, escaped (a newline in `text` is shown as `\u{0A}`), at once,
    /// so a pipe (`photoctl watch | grep`) sees it live.
    static func line(_ text: String) {
        write(SafeText.escaped(text) + "\n", to: .standardOutput)
    }

    /// Shows a question without ending the line, escaped, for the answer to follow on it.
    static func prompt(_ text: String) {
        write(SafeText.escaped(text), to: .standardOutput)
    }

    /// Prints photoctl's own help as it is: it holds no outside text, and its lines must stay lines.
    static func help(_ text: String) {
        write(text + "\n", to: .standardOutput)
    }

    /// Writes a message to standard error, each of its lines escaped.
    static func error(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { SafeText.escaped(String($0)) }
        write(lines.joined(separator: "\n") + "\n", to: .standardError)
    }

    /// Writes a remark for people to standard error, escaped, when standard output carries data
    /// (an image) that the remark must not mix with.
    static func note(_ message: String) {
        error(message)
    }

    /// Writes binary data (an image) to standard output as it is; callers make sure standard
    /// output is not a terminal.
    static func bytes(_ data: Data) {
        write(data, to: .standardOutput)
    }

    /// Writes `text` whole; a closed pipe ends photoctl quietly, any other failure with a message.
    private static func write(_ text: String, to handle: FileHandle) {
        write(Data(text.utf8), to: handle)
    }

    private static func write(_ data: Data, to handle: FileHandle) {
        do {
            try handle.write(contentsOf: data)
        } catch {
            let cause = posixError(of: error)
            if cause?.code == Int(EPIPE) { exit(closedPipeStatus) }
            if handle !== FileHandle.standardError {
                let reason = cause?.localizedDescription ?? "\(error)"
                try? FileHandle.standardError.write(contentsOf: Data("photoctl: cannot write the output: \(reason)\n".utf8))
            }
            exit(1)
        }
    }

    /// The errno error behind a FileHandle failure, which Foundation wraps in a Cocoa error.
    private static func posixError(of error: any Error) -> NSError? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return error }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return underlying
        }
        return nil
    }

    private static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
