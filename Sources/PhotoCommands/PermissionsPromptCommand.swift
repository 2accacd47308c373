import ArgumentParser
import Foundation
import PhotoAPI
import PhotoClient

/// `photoctl permissions prompt`: waits for requests and asks in the terminal, the way a
/// system alert would.
struct PermissionsPromptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Wait for apps to ask, and answer each request in this terminal.",
        discussion: "Requests already waiting are asked first. Ctrl-D or Ctrl-C stops.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Stop after answering one request.") var once = false

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("permissions prompt asks in a terminal; in scripts use permissions allow/deny")
        }
        // One connection for the event stream, one for the calls made while answering.
        let events = try await global.connect()
        let calls = try await global.connect()
        let stream = events.watchAuthorization()
        // Watch first, then list: a request arriving in between is in the stream, not lost.
        let waiting = try await calls.listApps().filter(\.pending)
        var asked = Set<String>()
        Output.line("Waiting for apps to ask for your photo library. Ctrl-D stops.")
        for app in waiting {
            guard try await answer(app, using: calls) else { return }
            asked.insert(app.id)
            if once { return }
        }
        for try await event in stream where event.kind == .requested {
            // A request listed above also arrives as an event when it came in meanwhile.
            if asked.remove(event.app.id) != nil && !event.app.pending { continue }
            guard try await answer(event.app, using: calls) else { return }
            if once { return }
        }
    }

    /// Asks about one app and records the answer; false when the terminal closed.
    private func answer(_ app: App, using client: PhotoClient) async throws -> Bool {
        Output.line("")
        Output.line("Allow \(AppText.name(app)) to see your photo library?")
        Output.line("Reason: \(app.reason ?? "(none given)")")
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("[a]llow / [l]imited / [d]eny / [s]kip: ") else { return false }
            switch reply.lowercased() {
            case "a", "allow":
                report(try await client.decide(app: app.id, uid: app.uid, status: .authorized))
                return true
            case "d", "deny":
                report(try await client.decide(app: app.id, uid: app.uid, status: .denied))
                return true
            case "l", "limited":
                guard let groups = try await chooseGroups(using: client) else { return false }
                if groups.isEmpty { continue }
                report(try await client.decide(app: app.id, uid: app.uid, status: .limited, groups: groups))
                return true
            case "s", "skip", "":
                Output.line("Skipped; the app keeps waiting until its request times out.")
                return true
            default:
                Output.line("Answer a, l, d or s.")
            }
        }
    }

    /// The groups the owner picks by number or name; nil when the terminal closed.
    private func chooseGroups(using client: PhotoClient) async throws -> [String]? {
        let groups = try await client.groups()
        for (index, group) in groups.enumerated() {
            Output.line("  \(index + 1)) \(group.name) (\(group.count))")
        }
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("Groups to share (numbers or names, comma-separated; empty: back): ")
            else { return nil }
            let words = reply.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            var chosen: [String] = []
            var unknown: [String] = []
            for word in words {
                if let number = Int(word), groups.indices.contains(number - 1) {
                    chosen.append(groups[number - 1].name)
                } else if let group = groups.first(where: { $0.name == word }) {
                    chosen.append(group.name)
                } else {
                    unknown.append(word)
                }
            }
            if unknown.isEmpty { return chosen }
            Output.line("No group \(unknown.joined(separator: ", ")); pick from the list.")
        }
    }

    private func report(_ app: App) {
        Output.line("\(app.id): \(AppText.access(app))")
    }
}

/// Line input from the terminal without blocking the async threads.
enum Terminal {
    /// The longest answer kept; the rest of a longer line is read and dropped.
    static let maxAnswerBytes = 4096

    /// Drops what was typed but not yet read. Called once a new question is on the screen and
    /// before its prompt invites an answer: keys pressed while nothing was asked, or meant for
    /// the previous question, must not answer one the owner has not read. (Not again when the
    /// same question is asked after an invalid answer: what follows was typed having read it.)
    static func discardTypedAhead() {
        if isatty(STDIN_FILENO) == 1 { tcflush(STDIN_FILENO, TCIFLUSH) }
    }

    /// Shows `prompt` and reads one line; nil at end of input.
    static func ask(_ prompt: String) async -> String? {
        Output.prompt(prompt)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: readAnswer()?.trimmingCharacters(in: .whitespaces))
            }
        }
    }

    /// One line from standard input, read straight from the descriptor: a buffered reader could
    /// hold keys typed early, where discarding the terminal's input would not reach them.
    private static func readAnswer() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            if line.count < maxAnswerBytes { line.append(byte) }
        }
    }
}
