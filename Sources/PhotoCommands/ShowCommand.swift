import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl show ID…`: everything photod knows about some photos.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show photos by id.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Asset ids, as printed by `photoctl list`.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one asset id") }
    }

    func run() async throws {
        let client = try await global.connect()
        let reply = try await client.getAssets(ids: ids)
        await client.close()
        if global.json {
            try Output.json(reply)
        } else {
            for (index, asset) in reply.assets.enumerated() {
                if index > 0 { Output.line("") }
                Output.table(["FIELD", "VALUE"], Self.fields(of: asset).map { [$0.0, $0.1] })
            }
        }
        if !reply.missing.isEmpty {
            Output.error("photoctl: not in the library: \(reply.missing.joined(separator: " "))")
            throw ExitCode.failure
        }
    }

    static func fields(of asset: Asset) -> [(String, String)] {
        var fields: [(String, String)] = [("id", asset.id), ("path", asset.path), ("group", asset.group)]
        if let description = asset.description {
            fields.append(("description", "\"\(description)\" (\(asset.descriptionSource?.rawValue ?? "?"))"))
        }
        fields.append(("format", asset.format))
        if let taken = asset.taken { fields.append(("taken", taken)) }
        if let width = asset.width, let height = asset.height { fields.append(("size", "\(width)×\(height) px")) }
        if let orientation = asset.orientation { fields.append(("orientation", String(orientation))) }
        if let make = asset.make { fields.append(("make", make)) }
        if let model = asset.model { fields.append(("model", model)) }
        fields.append(("bytes", String(asset.size)))
        fields.append(("modified", asset.modified))
        return fields
    }
}
