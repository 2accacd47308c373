import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// `photoctl forget ROOT`: the photos of a root's drive that is away are gone for good.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove an offline root's photos from the index: its drive is gone for good.",
        discussion: """
            photod keeps the photos of a root whose drive is away (offline in `photoctl status`), and of a drive \
            mounted inside a root. This reconciles the root with what its folder holds now, so those photos, their \
            ids and the selections naming them go, and takes the file system the folder is on now as the root's.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A root folder, as `photoctl status` lists it or any path to it.",
              completion: LibraryCompletion.roots)
    var root: String

    func run() async throws {
        // A relative path means the folder below where photoctl runs, as for any command.
        let path = AbsolutePath.resolve(root, against: FileManager.default.currentDirectoryPath)
        let client = try await global.connect()
        let reply = try await client.rescan(root: path, forget: true)
        await client.close()
        if global.json { return try Output.json(reply) }
        Output.line("Reconciled as it is now: \(reply.scanned) files looked at, \(reply.changed) changed.")
    }
}
