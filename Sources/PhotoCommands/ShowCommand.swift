import ArgumentParser
import Foundation
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

    @Argument(help: ArgumentHelp("Asset ids, as printed by `photoctl list`, or the photos' files.", valueName: "id|path"))
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
                Output.table(["FIELD", "VALUE"], Self.fields(of: asset).map { [.text($0.0), $0.1] })
            }
        }
        if !reply.missing.isEmpty {
            Output.error("photoctl: not in the library: \(reply.missing.joined(separator: " "))")
            throw ExitCode.failure
        }
    }

    static func fields(of asset: Asset) -> [(String, Output.Cell)] {
        var fields: [(String, Output.Cell)] = [("id", .text(asset.id)), ("path", .path(of: asset))]
        func add(_ name: String, _ value: String?) {
            if let value { fields.append((name, .text(value))) }
        }
        add("group", asset.group)
        add("description", asset.description.map { "\"\($0)\" (\(asset.descriptionSource?.rawValue ?? "?"))" })
        add("format", asset.format)
        add("taken", asset.taken)
        if let width = asset.width, let height = asset.height { add("size", "\(width)×\(height) px") }
        add("orientation", asset.orientation.map(String.init))
        add("make", asset.make)
        add("model", asset.model)
        add("bytes", String(asset.size))
        add("modified", asset.modified)
        return fields
    }
}
