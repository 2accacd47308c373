import ArgumentParser
import PhotoAPI

/// `photoctl rescan [ROOT]`: reconcile the index with the disk now.
struct RescanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan", abstract: "Reconcile the index with the disk now (one root, or all).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A configured root folder (default: every root).")
    var root: String?

    func run() async throws {
        let client = try await global.connect()
        let reply = try await client.rescan(root: root)
        await client.close()
        if global.json { return try Output.json(reply) }
        Output.line("Rescanned: \(reply.scanned) files looked at, \(reply.changed) changed.")
    }
}
