import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI

/// `photoctl status`: the daemon's state, roots and counts, every line within the terminal's width.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show photod's state and roots.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Self.show(global.settings)
    }

    /// Asks photod for its status and prints it (or its JSON).
    static func show(_ global: GlobalSettings) async throws {
        let client = try await global.connect()
        let status = try await client.status()
        await client.close()
        if global.json { return try Output.json(status) }
        // Each line wrapped to the terminal, its later lines indented: a problem or a root may be long.
        Output.paragraph("photod \(status.version): \(status.state.rawValue)")
        Output.paragraph("\(status.assets) photos in \(status.groups) groups; change token \(status.token)")
        var watching = "\(status.watches) folders watched with inotify"
        if let overflows = status.overflows, overflows > 0 {
            watching += "; its queue overflowed \(overflows) times, each followed by a reconcile"
        }
        Output.paragraph(watching)
        if let progress = status.progress {
            let total = progress.total.map { " of \($0)" } ?? ""
            Output.paragraph("Indexing: \(progress.indexed)\(total) files read, \(progress.found) found so far")
        }
        if let thumbnails = status.thumbnails { Output.paragraph(Self.describe(thumbnails)) }
        for problem in status.problems { Output.paragraph("Problem: \(problem)") }
        Output.line("")
        Output.table([Output.Column("ROOT"), Output.Column("STATE", flexible: false),
                      Output.Column("PHOTOS", flexible: false, alignRight: true)],
                     status.roots.flatMap(RootStateText.rows))
        let passes = PollPassText.lines(status.roots, now: Int(time(nil)))
        if !passes.isEmpty { Output.line("") }
        for pass in passes { Output.paragraph(pass) }
    }

    /// One line on the image workers and the thumbnail cache.
    static func describe(_ thumbnails: ThumbnailStatus) -> String {
        var line = "Images: \(thumbnails.workers) of \(thumbnails.maxWorkers) workers running, \(thumbnails.decoded) decoded, "
            + "\(thumbnails.cacheHits) from the cache, \(thumbnails.failed) failed"
        if thumbnails.restarts > 0 { line += ", \(thumbnails.restarts) workers replaced" }
        switch thumbnails.prefill {
        case .off: break
        case .idle: line += "; prefill waiting for idle"
        case .filling: line += "; prefilling (\(thumbnails.prefilled ?? 0) done)"
        case .done: line += "; prefill done (\(thumbnails.prefilled ?? 0) photos)"
        }
        return line + "; cache \(thumbnails.cache)"
    }
}
