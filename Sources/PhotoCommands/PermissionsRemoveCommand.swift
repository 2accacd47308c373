import ArgumentParser
import PhotoAPI

/// `photoctl permissions remove APP`: forget an app entirely.
struct PermissionsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Forget an app entirely: its record, decision and selection.",
        discussion: """
            Frees one of the app records photod keeps (at most 1,000): an app that asks after \
            that starts notDetermined, like one never seen. A waiting request ends unanswered and \
            the app loses what it saw. Use reset instead to keep the app listed but let it ask again.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument

    func run() async throws {
        let client = try await global.connect()
        let removed = try await client.remove(app: target.app, uid: target.uid)
        await client.close()
        if global.json { return try Output.json(removed) }
        Output.line("\(AppText.id(removed)): removed")
    }
}
