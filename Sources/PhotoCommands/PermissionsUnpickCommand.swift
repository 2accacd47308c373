import ArgumentParser
import PhotoAPI

/// `photoctl permissions unpick APP [ID|PATH…]`: take picked photos back from an app.
struct PermissionsUnpickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpick",
        abstract: "Take photos picked for an app back (all of them when none are named).",
        discussion: """
            The app can no longer read them (GetAssets, RequestImage, OpenOriginal); what it may \
            see otherwise stays as it is. An argument with a / in it, or naming a file that \
            exists, is a path; any other is an asset id.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument
    @Argument(help: ArgumentHelp("The photos to take back, by asset id or file (none: all).", valueName: "id|path"),
              completion: LibraryCompletion.assets)
    var photos: [String] = []

    func run() async throws {
        let client = try await global.connect()
        let ids = photos.isEmpty ? nil : try await AssetArguments.ids(of: photos, client: client)
        let app = try await client.unpick(app: target.app, uid: target.uid, ids: ids)
        await client.close()
        if global.json { return try Output.json(AppReply(app: app)) }
        let left = app.picked ?? 0
        AppText.line("", app, ": \(left) picked photo\(left == 1 ? "" : "s") left")
    }
}
