#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix
import SafeText
import Synchronization
import SystemPackage

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
/// signal so that every write reports EPIPE instead, whoever made the write). A person who
/// quits the pager early (q) ends photoctl quietly too, with status 0 as systemctl's.
enum Output {
    /// The exit status after the reader of standard output or standard error went away: 128 + SIGPIPE.
    static let closedPipeStatus: Int32 = 128 + SIGPIPE

    /// This run's style and pager; `PhotoctlMain` sets it before the command runs.
    private struct Session {
        var style = OutputStyle.plain
        /// The pager to start at the first output for people, nil for none.
        var pagerCommand: Pager.Command?
        var pageErrors = false
        var pager: Pager?
    }

    private static let session = Mutex(Session())

    /// How output for people looks in this run.
    static var style: OutputStyle { session.withLock { $0.style } }

    /// Sets the style, and the pager that output for people goes through (nil: none); the
    /// pager starts only when the command prints something for people.
    static func configure(style: OutputStyle, pager: Pager.Command?, pageErrors: Bool) {
        session.withLock { $0 = Session(style: style, pagerCommand: pager, pageErrors: pageErrors) }
    }

    /// Closes the pager, if one runs, and waits until the person has quit it; true when one ran.
    /// Every way out of photoctl comes here before it exits.
    @discardableResult
    static func endPaging() -> Bool {
        let pager = session.withLock { session in
            defer { session.pager = nil }
            return session.pager
        }
        pager?.finish()
        return pager != nil
    }

    /// Starts the pager before the first output for people, when this run has one.
    private static func forPeople() {
        session.withLock { session in
            guard session.pager == nil, let command = session.pagerCommand else { return }
            session.pagerCommand = nil
            session.pager = Pager.start(command, redirectError: session.pageErrors)
        }
    }

    /// Prints `value` as one JSON document.
    static func json<T: Encodable>(_ value: T) throws {
        write(try encode(value, pretty: true) + "\n", to: .standardOutput)
    }

    /// Prints `value` as one JSON object on one line, at once: one event of a stream.
    static func jsonLine<T: Encodable>(_ value: T) throws {
        write(try encode(value, pretty: false) + "\n", to: .standardOutput)
    }

    /// Prints one line for people, escaped (a newline in `text` is shown as `\u{0A}`), at once,
    /// so a pipe (`photoctl watch | grep`) sees it live.
    static func line(_ text: String) {
        people(SafeText.escaped(text) + "\n")
    }

    /// Writes text for people, already escaped and laid out, through the pager when there is one.
    static func people(_ text: String) {
        forPeople()
        write(text, to: .standardOutput)
    }

    /// Writes lines for scripts (tab-separated values), already escaped, never through the pager.
    static func data(_ text: String) {
        write(text, to: .standardOutput)
    }

    /// Shows a question without ending the line, escaped, for the answer to follow on it.
    static func prompt(_ text: String) {
        write(SafeText.escaped(text), to: .standardOutput)
    }

    /// Prints photoctl's own help as it is: it holds no outside text, and its lines must stay lines.
    static func help(_ text: String) {
        write(text + "\n", to: .standardOutput)
    }

    /// Writes a message to standard error, each of its lines escaped, and wrapped at word
    /// boundaries to the terminal's width when standard error is one.
    static func error(_ message: String) {
        let width = style.errorWidth
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            let escaped = SafeText.escaped(String(line))
            return width.map { Wrap.lines(escaped, width: $0) } ?? [escaped]
        }
        write(lines.joined(separator: "\n") + "\n", to: .standardError)
    }

    /// Prints prose for people (a status line, a hint) escaped, wrapped at word boundaries to the
    /// style's width when it has one, its later lines indented by `indent`.
    static func paragraph(_ text: String, indent: Int = 2) {
        paragraph(escaped: SafeText.escaped(text), indent: indent)
    }

    /// Prints one line its caller escaped already, its end cut ("…") to the style's width when
    /// it is wider: for lines that are records (an event, an entry), not prose to wrap.
    static func fitted(escaped: String) {
        people((style.width.map { Ellipsis.fit(escaped, width: $0, at: .end) } ?? escaped) + "\n")
    }

    /// `paragraph` for text its caller escaped already (it holds an app's name set apart).
    static func paragraph(escaped: String, indent: Int = 2) {
        let lines = style.width.map { Wrap.lines(escaped, width: $0, indent: indent) } ?? [escaped]
        people(lines.joined(separator: "\n") + "\n")
    }

    /// Writes a message to standard error that its caller escaped already, part by part: it
    /// shows bytes that are not UTF-8 (a file name), which `error` would have to take as text.
    static func escapedError(_ message: String) {
        write(message + "\n", to: .standardError)
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

    /// Standard output or standard error.
    private enum Stream {
        case standardOutput, standardError

        var descriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
    }

    /// Writes `text` whole; a closed pipe ends photoctl quietly, any other failure with a message.
    private static func write(_ text: String, to stream: Stream) {
        var text = text
        failed(text.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: stream.descriptor) }, on: stream)
    }

    private static func write(_ data: Data, to stream: Stream) {
        failed(data.withUnsafeBytes { DescriptorWrite.all($0, to: stream.descriptor) }, on: stream)
    }

    /// Ends photoctl when a write to `stream` failed with `code` (0: it did not).
    private static func failed(_ code: Int32, on stream: Stream) {
        guard code != 0 else { return }
        if code == EPIPE { exit(endPaging() ? 0 : closedPipeStatus) }
        if stream != .standardError {
            // Worded as Foundation's FileHandle worded it, which photoctl used to write with.
            let reason = "The operation could not be completed. \(Errno(rawValue: code))"
            var message = "photoctl: cannot write the output: \(reason)\n"
            _ = message.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
        }
        endPaging()
        exit(1)
    }

    private static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
