import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl watch`: one line per committed change, as it happens, naming the photos and groups
/// it touched; each line fits the terminal.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print library changes as they happen (one JSON object per line with --json).")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Replay the changes after this change token first.", valueName: "token"))
    var since: Int?

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since takes a change token, 0 or more, not \(since)") }
    }

    func run() async throws {
        let client = try await global.connect()
        var line = ChangeLine()
        if !global.json { line.roots = await lookUp { try await $0.status().roots.map(\.path) } ?? [] }
        var first = true
        // The newest token this run has shown all changes up to: where a new watch resumes.
        var seen = since
        try await StreamEnd.reportingStop(resume: { seen.map { resumeCommand(since: $0) } }) {
            for try await change in client.subscribe(since: since) {
                if global.json {
                    try Output.jsonLine(change)
                } else if first {
                    Output.line(header(current: change.token))
                } else {
                    line.paths = await paths(of: ChangeLine.idsToLookUp(change))
                    Output.people(line.text(change, width: Output.style.width) + "\n")
                }
                if !first || seen == nil { seen = change.token }
                first = false
            }
        }
        await client.close()
    }

    /// The paths of the photos `ids` that are still there, by id; none when they cannot be had.
    func paths(of ids: [String]) async -> [String: String] {
        guard !ids.isEmpty, let found = await lookUp({ try await $0.getAssets(ids: ids) }) else { return [:] }
        return Dictionary(found.assets.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
    }

    /// `call` on a connection of its own, opened for it (the stream's carries only the stream,
    /// and one kept open would be closed as idle between changes); nil when it fails.
    func lookUp<T>(_ call: (PhotoClient) async throws -> T) async -> T? {
        guard let client = try? await global.connect() else { return nil }
        let result = try? await call(client)
        await client.close()
        return result
    }

    /// The first line: from which token on changes are shown, and which are replayed first.
    func header(current: Int) -> String {
        guard let since else { return "Watching photod from change token \(current). Ctrl-C stops." }
        guard since < current else { return "Watching photod from change token \(current) (nothing to replay). Ctrl-C stops." }
        return "Replaying changes after token \(since) (\(since + 1) to \(current)), then watching. Ctrl-C stops."
    }

    /// The command that watches on from `token`, in this run's format.
    func resumeCommand(since token: Int) -> String {
        // Over --host the resumed watch must reach the same photod.
        let host = global.remoteHost.map { " --host \($0)" } ?? ""
        return "photoctl\(host) watch --since \(token)" + (global.json ? " --json" : "")
    }
}
