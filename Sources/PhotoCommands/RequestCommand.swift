import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl request`: a shell script asks for access as itself (photod identifies the program
/// that ran photoctl, not photoctl).
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask the owner to let the calling script see the library (or only add to it).",
        discussion: """
            photod identifies the program that ran photoctl (the script), so the answer is about \
            that script; its later `photoctl --as-app …` calls see what the owner allowed. Exit \
            status 0 when allowed (authorized or limited), 1 otherwise. Without --timeout it waits \
            as long as photod keeps the request open ([permissions] request_timeout). With \
            --level add it asks only to add photos (photoctl import), which reads nothing.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Why the script wants to see the photos; the owner reads it.") var reason: String
    @Option(name: .long, help: "A name for the script, shown to the owner next to its id.") var label: String?
    @Option(name: .long, help: ArgumentHelp("What to ask for: read (see the library) or add (add photos only).",
                                            valueName: "read|add"))
    var level: LevelArgument = .read
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Give up after this many seconds without an answer (exit status 1).",
                                            valueName: "seconds"))
    var timeout: Double?

    /// The longest --timeout: a day, far beyond any request photod keeps open.
    static let maximumTimeout = 86_400.0

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= Self.maximumTimeout) {
            throw ValidationError("--timeout is a number of seconds above 0 and at most \(Int(Self.maximumTimeout)), not \(timeout)")
        }
    }

    func run() async throws {
        let client = try await global.connect(forCaller: true)
        let answer = try await withThrowingTaskGroup(of: Answer.self) { group in
            group.addTask {
                .final(try await Self.waitForAnswer(client, reason: reason, label: label, level: level.accessLevel))
            }
            if let timeout {
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
                    return .timedOut
                }
            }
            let first = try await group.next() ?? .final(nil)
            group.cancelAll()
            return first
        }
        guard case .final(let final) = answer else {
            // Closing the connection ends the request: the owner is no longer asked about it.
            await client.close()
            Output.error("photoctl: no answer within \(Self.seconds(timeout ?? 0)); the request was withdrawn")
            throw ExitCode(1)
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
            let option = level == .add ? " --level add" : ""
            Output.error("photoctl: \(me.id) was denied; the owner lets it ask again with: "
                         + "photoctl permissions reset '\(me.id)'\(option)")
        case .restricted:
            Output.error("photoctl: \(me.id) is restricted by photod.toml's [permissions] restricted list")
        case .notDetermined:
            Output.error("photoctl: the owner did not answer; ask again later")
        }
        throw ExitCode(1)
    }

    /// How the wait ended.
    private enum Answer: Sendable {
        /// The owner answered (or the request ended without an answer: nil).
        case final(RequestAuthorizationReply?)
        case timedOut
    }

    /// Asks, and waits for the final reply.
    private static func waitForAnswer(_ client: PhotoClient, reason: String, label: String?, level: AccessLevel)
        async throws -> RequestAuthorizationReply? {
        var final: RequestAuthorizationReply?
        // readWrite goes as an absent level, so a daemon from before levels still understands.
        for try await reply in client.requestAuthorization(reason: reason, label: label,
                                                           level: level == .readWrite ? nil : level) {
            if reply.pending {
                Output.error("Waiting for the owner to answer (photoctl permissions prompt)…")
            } else {
                final = reply
            }
        }
        return final
    }

    /// "30 s", "1.5 s".
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
