import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl describe ID|PATH… TEXT`: writes a description into photos, which files them in its group.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Give photos a description (their group), written into the files.",
        discussion: """
            The description goes where photod reads it: into a JPEG's own metadata (every other \
            byte of the file kept), else into an XMP sidecar beside the photo, which is not \
            touched. Each photo keeps its id. A photo that cannot be written (it changed on disk \
            since photod read it, it is read-only, or its metadata cannot take the text safely) \
            is reported and the others are still written; the exit status is then 1. An argument \
            with a / in it, or naming a file that exists, is a path; any other is an asset id.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Asset ids or the photos' files, then the description (none with --clear).",
                                 valueName: "id|path… text"), completion: LibraryCompletion.assets)
    var arguments: [String] = []
    @Flag(name: .long, help: "Remove the description instead (the photos go to the fallback group).") var clear = false

    private var targets: [String] { clear ? arguments : Array(arguments.dropLast()) }

    func validate() throws {
        if clear ? arguments.isEmpty : arguments.count < 2 {
            throw ValidationError(clear ? "name at least one photo to clear" : "name at least one photo, then the description")
        }
    }

    func run() async throws {
        let client = try await global.connect()
        let found = try await AssetArguments.ids(of: targets, client: client)
        let reply = try await client.setDescription(ids: found, description: clear ? nil : arguments.last)
        await client.close()
        if global.json { return try Output.json(reply) }
        for asset in reply.assets {
            Output.people("\(SafeText.escaped(asset.id)) \(SafeText.escaped(GroupLabel.text(name: asset.group, fallback: asset.fallback == true))) "
                          + "\(SafeText.escaped(asset.path))\n")
        }
        for failure in reply.failed {
            Output.error("photoctl: \(failure.id): not written: \(failure.reason)")
        }
        if !reply.failed.isEmpty { throw ExitCode.failure }
    }
}
