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
    @Option(name: .long, parsing: .unconditional, help: "With --app: whose app, when apps of several users share the id.")
    var uid: Int?

    func validate() throws {
        if uid != nil && app == nil { throw ValidationError("--uid goes with --app") }
        try AppArgument.check(uid: uid)
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
        // Ctrl-D while nothing is asked ends the prompt, as the line above says.
        let input = IdleInput { IdleInput.stop("Stopped waiting for requests.") }
        input.waiting()
        for try await event in stream where Self.isAbout(event.app, only) {
            input.busy()
            defer { input.waiting() }
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
    /// the fallback group is among them), from a menu paged to the terminal and narrowed by
    /// typed text; nil when the terminal closed.
    private func chooseGroups(using client: PhotoClient) async throws -> (names: [String], fallback: Bool)? {
        var menu = GroupMenu(try await client.groups())
        let width = Output.style.width ?? OutputStyle.fallbackColumns
        // The heading (wrapped to two or three lines) and the question take the rest of the screen.
        let pageSize = max(Terminal.rows() - 5, 3)
        var shown = true
        Terminal.discardTypedAhead()
        while true {
            if shown {
                let page = menu.page(size: pageSize, width: width)
                Output.paragraph(page.heading)
                for entry in page.entries { Output.fitted(escaped: entry) }
            }
            guard let reply = await Terminal.ask("Groups to share: ") else { return nil }
            let read = menu.read(reply)
            shown = true
            switch read {
            case .back: return ([], false)
            case .chosen(let names, let fallback): return (names, fallback)
            case .nextPage, .narrow: menu.apply(read, pageSize: pageSize)
            case .unknown(let words):
                Output.paragraph("No group \(words.joined(separator: ", ")); pick from the list.")
                shown = false
            }
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
