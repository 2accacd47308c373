import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient

/// `photoctl show ID|PATH…`: everything photod knows about some photos.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show photos by id or by file.",
        discussion: """
            An argument with a / in it, or naming a file that exists, is a path (relative to the \
            current folder; symlinks resolved); any other is an asset id.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Asset ids, as printed by `photoctl list`, or the photos' files.", valueName: "id|path"),
              completion: LibraryCompletion.assets)
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one asset id or file") }
    }

    func run() async throws {
        let directory = FileManager.default.currentDirectoryPath
        let paths = ids.filter(PathArgument.isPath).map { PathArgument.resolve($0, in: directory) }
        let client = try await global.connect()
        let reply = try await client.getAssets(ids: ids.filter { !PathArgument.isPath($0) },
                                               paths: paths.isEmpty ? nil : paths)
        await client.close()
        if global.json {
            try Output.json(reply)
        } else {
            for (index, asset) in reply.assets.enumerated() {
                if index > 0 { Output.line("") }
                Output.fields(AssetDetails.fields(of: asset))
            }
        }
        if !reply.missing.isEmpty {
            Output.error("photoctl: not in the library: \(reply.missing.joined(separator: " "))")
            throw ExitCode.failure
        }
    }
}
