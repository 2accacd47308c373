import ArgumentParser
import PhotoAPI

/// `photoctl status`: the daemon's state, roots and counts.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show photod's state and roots.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try await global.connect()
        let status = try await client.status()
        await client.close()
        if global.json { return try Output.json(status) }
        Output.line("photod \(status.version): \(status.state.rawValue)")
        Output.line("\(status.assets) photos in \(status.groups) groups; change token \(status.token)")
        var watching = "\(status.watches) folders watched with inotify"
        if let overflows = status.overflows, overflows > 0 {
            watching += "; its queue overflowed \(overflows) times, each followed by a reconcile"
        }
        Output.line(watching)
        if let progress = status.progress {
            let total = progress.total.map { " of \($0)" } ?? ""
            Output.line("Indexing: \(progress.indexed)\(total) files read, \(progress.found) found so far")
        }
        for problem in status.problems { Output.line("Problem: \(problem)") }
        Output.line("")
        Output.table(["ROOT", "STATE", "PHOTOS"], status.roots.map { [$0.path, $0.state.rawValue, String($0.assets)] })
    }
}
