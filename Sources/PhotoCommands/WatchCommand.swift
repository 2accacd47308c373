import ArgumentParser
import PhotoAPI

/// `photoctl watch`: one line per committed change, as it happens.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print library changes as they happen (one JSON object per line with --json).")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, parsing: .unconditional, help: "Replay the changes after this token first.")
    var since: Int?

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since takes a change token, 0 or more, not \(since)") }
    }

    func run() async throws {
        let client = try await global.connect()
        var first = true
        for try await change in client.subscribe(since: since) {
            if global.json {
                try Output.jsonLine(change)
            } else if first {
                Output.line("Watching photod from change token \(change.token). Ctrl-C stops.")
            } else {
                Output.line(Self.describe(change))
            }
            first = false
        }
        await client.close()
    }

    static func describe(_ change: Change) -> String {
        if change.resync {
            return "[\(change.token)] resync: photod cannot say what changed; list everything again"
        }
        var parts: [String] = []
        if !change.inserted.isEmpty { parts.append("\(change.inserted.count) added") }
        if !change.updated.isEmpty { parts.append("\(change.updated.count) updated") }
        if !change.moved.isEmpty { parts.append("\(change.moved.count) moved") }
        if !change.removed.isEmpty { parts.append("\(change.removed.count) removed") }
        var line = "[\(change.token)] " + (parts.isEmpty ? "no photos changed" : parts.joined(separator: ", "))
        if !change.groupsChanged.isEmpty {
            line += "; groups changed: "
                + GroupLabel.names(change.groupsChanged, firstIsFallback: change.fallbackChanged).joined(separator: ", ")
        }
        if !change.groupsRemoved.isEmpty {
            line += "; groups emptied: "
                + GroupLabel.names(change.groupsRemoved, firstIsFallback: change.fallbackRemoved).joined(separator: ", ")
        }
        return line
    }
}
