import ArgumentParser
import PhotoAPI

/// `photoctl request`: a shell script asks for access as itself (photod identifies the program
/// that ran photoctl, not photoctl).
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask the owner to let the calling script see the library.",
        discussion: """
            photod identifies the program that ran photoctl (the script), so the answer is about \
            that script; its later `photoctl --as-app …` calls see what the owner allowed. Exit \
            status 0 when allowed (authorized or limited), 1 otherwise.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Why the script wants to see the photos; the owner reads it.") var reason: String
    @Option(name: .long, help: "A name for the script, shown to the owner next to its id.") var label: String?

    func run() async throws {
        let client = try await global.connect(forCaller: true)
        var final: RequestAuthorizationReply?
        for try await reply in client.requestAuthorization(reason: reason, label: label) {
            if reply.pending {
                Output.error("Waiting for the owner to answer (photoctl permissions prompt)…")
            } else {
                final = reply
            }
        }
        let me = try await client.authorizationStatus()
        await client.close()
        guard let final else { throw ExitCode(1) }
        if global.json {
            try Output.json(final)
        } else {
            Output.line(final.status.rawValue)
        }
        switch final.status {
        case .authorized, .limited:
            return
        case .denied:
            Output.error("photoctl: \(me.id) was denied; the owner lets it ask again with: "
                         + "photoctl permissions reset '\(me.id)'")
        case .restricted:
            Output.error("photoctl: \(me.id) is restricted by photod.toml's [permissions] restricted list")
        case .notDetermined:
            Output.error("photoctl: the owner did not answer; ask again later")
        }
        throw ExitCode(1)
    }
}
