import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import PhotoClient
import SafeText

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
        try await Self.show(global.settings, ids: ids)
    }

    /// Shows the photos `ids` name (ids, or paths as `PathArgument` tells them apart), or their JSON.
    static func show(_ global: GlobalSettings, ids: [String]) async throws {
        let directory = FileManager.default.currentDirectoryPath
        let paths = ids.filter(PathArgument.isPath).map { PathArgument.resolve($0, in: directory) }
        // A UTF-8 path goes as text (as photod has always taken it), any other as its bytes.
        let texts = paths.compactMap { String(validating: $0, as: UTF8.self) }
        let exact = paths.filter { String(validating: $0, as: UTF8.self) == nil }
        let client = try await global.connect()
        let reply = try await client.getAssets(ids: ids.filter { !PathArgument.isPath($0) },
                                               paths: texts.isEmpty ? nil : texts,
                                               pathBytes: exact.isEmpty ? nil : exact.map { Data($0).base64EncodedString() })
        await client.close()
        if global.json {
            try Output.json(reply)
        } else {
            for (index, asset) in reply.assets.enumerated() {
                if index > 0 { Output.line("") }
                Output.fields(AssetDetails.fields(of: asset))
            }
        }
        if !reply.missing.isEmpty || !(reply.missingPathBytes?.isEmpty ?? true) {
            Output.escapedError("photoctl: not in the library: \(AssetArguments.missingText(reply))")
            throw ExitCode.failure
        }
    }
}
