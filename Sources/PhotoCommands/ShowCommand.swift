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
                Output.fields(AssetDetails.fields(of: asset))
            }
        }
        if !reply.missing.isEmpty {
            Output.error("photoctl: not in the library: \(reply.missing.joined(separator: " "))")
            throw ExitCode.failure
        }
    }
}
