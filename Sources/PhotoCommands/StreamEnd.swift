import ArgumentParser
import PhotoClient

/// How a stream command (`watch`, `permissions watch`) ends when photod goes away under it.
enum StreamEnd {
    /// The exit status when photod stopped mid-stream, as when it cannot be reached.
    static let stoppedStatus: Int32 = 3

    /// Runs `body`; when photod stops (SIGTERM closes the stream unanswered, a crash ends it
    /// the same way) says so on standard error with the command that picks up where it was,
    /// `resume()` (nil: none), and ends photoctl with `stoppedStatus`.
    static func reportingStop(resume: () -> String?, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch PhotoClientError.stopped {
            Output.error(RemoteHost.naming("photoctl: " + message(resume: resume()), for: .stopped))
            throw ExitCode(stoppedStatus)
        }
    }

    /// "photod stopped; resume with photoctl watch --since 42", or "photod stopped" alone.
    static func message(resume: String?) -> String {
        "photod stopped" + (resume.map { "; resume with \($0)" } ?? "")
    }
}
