import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl permissions prompt`: waits for requests and asks in the terminal, the way a
/// system alert would.
struct PermissionsPromptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Wait for apps to ask, and answer each request in this terminal.",
        discussion: """
            Requests already waiting are asked first. Besides requests for access, an app may ask to \
            change photos (their description); each such change is asked about as well. Ctrl-D or \
            Ctrl-C stops. With --app, only that app's requests are asked about, once (photod-notify's \
            Choose… opens this).
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Stop after answering one request.") var once = false
    @Option(name: .long, help: "Ask only about this app (its id, or a whole component of it), then stop.",
            completion: LibraryCompletion.apps)
    var app: String?
    @Option(name: .long, help: "With --app: whose app, when apps of several users share the id.")
    var uid: Int?

    func validate() throws {
        if uid != nil && app == nil { throw ValidationError("--uid goes with --app") }
    }

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("permissions prompt asks in a terminal; in scripts use permissions allow/deny")
        }
        // One connection for the event stream, one for the calls made while answering.
        let events = try await global.connect()
        let calls = try await global.connect()
        let stream = events.watchAuthorization()
        var only: App?
        // Watch first, then list: a request arriving in between is in the stream, not lost.
        var changes = try await calls.listChanges()
        var picks = try await calls.listPicks()
        if let app {
            let named = try await calls.app(app, uid: uid)
            changes = changes.filter { Self.isAbout($0.app, named) }
            picks = picks.filter { Self.isAbout($0.app, named) }
            guard named.pending || named.addOnly?.pending == true || !changes.isEmpty || !picks.isEmpty else {
                AppText.line("", named, " is not waiting for an answer (it is \(AppText.access(named))).")
                return
            }
            only = named
        }
        // With --app, every request of that app is asked about, then the prompt ends.
        let once = self.once
        let waiting = try await calls.listApps().flatMap { app in
            Self.pendingLevels(app).map { (app, $0) }
        }.filter { Self.isAbout($0.0, only) }
        var asked = Set<String>()
        Output.paragraph("Waiting for apps to ask for your photo library. Ctrl-D stops.")
        for (app, level) in waiting {
            guard try await answer(app, level: level, using: calls) else { return }
            asked.insert("\(level.rawValue) \(app.uid) \(app.id)")
            if once { return }
        }
        for change in changes {
            guard try await answer(change: change, using: calls) else { return }
            asked.insert("change \(change.id)")
            if once { return }
        }
        for pick in picks {
            guard try await answer(pick: pick, using: calls) else { return }
            asked.insert("pick \(pick.id)")
            if once { return }
        }
        if only != nil { return }
        for try await event in stream where Self.isAbout(event.app, only) {
            if event.kind == .changeRequested, let change = event.change {
                if asked.remove("change \(change.id)") != nil { continue }
                guard try await answer(change: change, using: calls) else { return }
                if once { return }
                continue
            }
            if event.kind == .pickRequested, let pick = event.pick {
                if asked.remove("pick \(pick.id)") != nil { continue }
                guard try await answer(pick: pick, using: calls) else { return }
                if once { return }
                continue
            }
            guard event.kind == .requested else { continue }
            let level = event.level ?? .readWrite
            // A request listed above also arrives as an event when it came in meanwhile.
            if asked.remove("\(level.rawValue) \(event.app.uid) \(event.app.id)") != nil
                && !Self.pendingLevels(event.app).contains(level) { continue }
            guard try await answer(event.app, level: level, using: calls) else { return }
            if once { return }
        }
    }

    /// What an app that asked for several things says of them: whether it cannot work without
    /// this one, and what else it asked for in the same question.
    private static func needsLines(_ app: App, level: AccessLevel) {
        if app.required?.contains(level) == true { Output.paragraph("The app says it cannot work without this.") }
        if level == .readWrite && app.addOnly?.pending == true {
            let required = app.required?.contains(.addOnly) == true ? " (required)" : ""
            Output.paragraph("It also asks to add photos\(required); you decide that next.")
        }
    }

    /// The levels at which `app` waits for an answer, readWrite first.
    private static func pendingLevels(_ app: App) -> [AccessLevel] {
        (app.pending ? [.readWrite] : []) + (app.addOnly?.pending == true ? [.addOnly] : [])
    }

    /// Whether `app` is the one app asked about (any app when `only` is nil).
    private static func isAbout(_ app: App, _ only: App?) -> Bool {
        guard let only else { return true }
        return app.id == only.id && app.uid == only.uid
    }

    /// Asks about one app's request at `level` and records the answer; false when the terminal closed.
    private func answer(_ app: App, level: AccessLevel, using client: PhotoClient) async throws -> Bool {
        guard level == .readWrite else { return try await answerAdding(app, using: client) }
        Output.line("")
        AppText.line("Allow ", app, " to see your photo library?")
        Output.paragraph("Reason: \(app.reason ?? "(none given)")")
        Self.needsLines(app, level: .readWrite)
        if let warning = app.warning { Output.paragraph("Careful: \(warning).") }
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("[a]llow / [l]imited / [d]eny / [s]kip: ") else { return false }
            switch reply.lowercased() {
            case "a", "allow":
                guard try await confirmed(app) else { continue }
                report(try await client.decide(app: app.id, uid: app.uid, status: .authorized,
                                               confirmed: app.warning == nil ? nil : true))
                return true
            case "d", "deny":
                report(try await client.decide(app: app.id, uid: app.uid, status: .denied))
                return true
            case "l", "limited":
                guard let (groups, fallback) = try await chooseGroups(using: client) else { return false }
                if groups.isEmpty && !fallback { continue }
                guard try await confirmed(app) else { continue }
                report(try await client.decide(app: app.id, uid: app.uid, status: .limited, groups: groups,
                                               fallback: fallback ? true : nil, confirmed: app.warning == nil ? nil : true))
                return true
            case "s", "skip", "":
                Output.paragraph("Skipped; the app keeps waiting until its request times out.")
                return true
            default:
                Output.paragraph("Answer a, l, d or s.")
            }
        }
    }

    /// Asks whether the app may add photos (and see none of them).
    private func answerAdding(_ app: App, using client: PhotoClient) async throws -> Bool {
        Output.line("")
        AppText.line("Allow ", app, " to add photos to your library? (\(AccessLevel.addOnly.words): it sees none of them)")
        Output.paragraph("Reason: \(app.addOnly?.reason ?? "(none given)")")
        Self.needsLines(app, level: .addOnly)
        if let warning = app.warning { Output.paragraph("Careful: \(warning).") }
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("[a]llow adding / [d]eny / [s]kip: ") else { return false }
            switch reply.lowercased() {
            case "a", "allow":
                guard try await confirmed(app) else { continue }
                report(try await client.decide(app: app.id, uid: app.uid, status: .authorized,
                                               confirmed: app.warning == nil ? nil : true, level: .addOnly))
                return true
            case "d", "deny":
                report(try await client.decide(app: app.id, uid: app.uid, status: .denied, level: .addOnly))
                return true
            case "s", "skip", "":
                Output.paragraph("Skipped; the app keeps waiting until its request times out.")
                return true
            default:
                Output.paragraph("Answer a, d or s.")
            }
        }
    }

    /// The groups the owner picks by number or label (description groups by name, and whether
    /// the fallback group is among them); nil when the terminal closed.
    private func chooseGroups(using client: PhotoClient) async throws -> (names: [String], fallback: Bool)? {
        let groups = try await client.groups()
        for (index, group) in groups.enumerated() {
            Output.line("  \(index + 1)) \(GroupLabel.text(group)) (\(group.count))")
        }
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("Groups to share (numbers or names, comma-separated; empty: back): ")
            else { return nil }
            let words = reply.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            var chosen: [String] = []
            var fallback = false
            var unknown: [String] = []
            for word in words {
                // As the list shows them (the fallback group by its label); a bare name that only
                // the fallback group has is the fallback group, as photod takes it.
                let picked = Int(word).flatMap { groups.indices.contains($0 - 1) ? groups[$0 - 1] : nil }
                    ?? groups.first(where: { GroupLabel.text($0) == word })
                    ?? groups.first(where: { $0.name == word })
                guard let group = picked else {
                    unknown.append(word)
                    continue
                }
                if group.fallback { fallback = true } else { chosen.append(group.name) }
            }
            if unknown.isEmpty { return (chosen, fallback) }
            Output.paragraph("No group \(unknown.joined(separator: ", ")); pick from the list.")
        }
    }

    /// True when the app has no warning, or the owner typed yes to it.
    private func confirmed(_ app: App) async throws -> Bool {
        guard app.warning != nil else { return true }
        guard let yes = await Terminal.confirm("This allows all of them. Type yes to confirm: ") else {
            throw ExitCode.success
        }
        if yes { return true }
        Output.paragraph("Not allowed.")
        return false
    }

    private func report(_ app: App) {
        AppText.line("", app, ": \(AppText.accessWithAdding(app))")
    }
}

/// Line input from the terminal without blocking the async threads.
enum Terminal {
    /// The longest answer kept; the rest of a longer line is read and dropped.
    static let maxAnswerBytes = 4096

    /// Drops what was typed but not yet read. Called once a new question is on the screen and
    /// before its prompt invites an answer: keys pressed while nothing was asked, or meant for
    /// the previous question, must not answer one the owner has not read. (Not again when the
    /// same question is asked after an invalid answer: what follows was typed having read it.)
    static func discardTypedAhead() {
        if isatty(STDIN_FILENO) == 1 { tcflush(STDIN_FILENO, TCIFLUSH) }
    }

    /// Asks for a typed "yes", the one answer that confirms a warning; nil at end of input.
    static func confirm(_ question: String) async -> Bool? {
        await ask(question).map { $0.lowercased() == "yes" }
    }

    /// Shows `prompt` and reads one line; nil at end of input.
    static func ask(_ prompt: String) async -> String? {
        Output.prompt(prompt)
        return await withCheckedContinuation { continuation in
            // A queue of its own gets a thread of its own from Dispatch, which adds threads while
            // one blocks: the read never holds one of the concurrency pool's few threads.
            DispatchQueue(label: "photoctl.terminal").async {
                continuation.resume(returning: readAnswer()?.trimmingWhitespace())
            }
        }
    }

    /// One line from standard input, read straight from the descriptor: a buffered reader could
    /// hold keys typed early, where discarding the terminal's input would not reach them.
    private static func readAnswer() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            if line.count < maxAnswerBytes { line.append(byte) }
        }
    }
}
