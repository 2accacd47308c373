import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// `photoctl rescan [ROOT]`: reconcile the index with the disk now.
struct RescanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan", abstract: "Reconcile the index with the disk now (one root, or all).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A root folder, as `photoctl status` lists it or any path to it (default: every root).",
              completion: LibraryCompletion.roots)
    var root: String?

    func run() async throws {
        // A relative path means the folder below where photoctl runs, as for any command.
        let path = root.map { AbsolutePath.resolve($0, against: FileManager.default.currentDirectoryPath) }
        let client = try await global.connect()
        let reply = try await client.rescan(root: path)
        await client.close()
        if global.json { return try Output.json(reply) }
        Output.line("Rescanned: \(reply.scanned) files looked at, \(reply.changed) changed.")
    }
}
