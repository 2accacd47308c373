import Foundation
import PhotoTestSupport
import Testing

/// A library whose group names try to break or run code in a shell, with photoctl's generated
/// completion scripts: the real photod answers, the real shells complete.
private struct CompletionLibrary {
    let daemon: DaemonHarness
    /// A second root whose name holds a newline: no shell can take it as one word.
    let oddRoots: TemporaryDirectory
    /// Files the group names try to create.
    var pwned: [String] { [daemon.dir.file("pwned1"), daemon.dir.file("pwned2")] }

    /// Every group name, and those a shell may be offered (all but the one with an ESC).
    var groups: [String] { Self.hostileNames(pwned) }
    var offered: Set<String> { Set(groups.filter { !$0.contains("\u{1B}") }) }

    /// Names that try to break a shell, or to run code that creates the files `pwned`.
    static func hostileNames(_ pwned: [String]) -> [String] {
        ["Beach Trip", "Beach $(touch \(pwned[0]))", "Beach `touch \(pwned[1])`", "Beach 'quoted'", "Beach: colon",
         "Beach \\ backslash", "Beach \u{1B}[31mred", "Hike", "Café"]
    }

    /// A library of one photo per description (nil: none, the fallback group), hostile names by default.
    static func start(trusted: [String] = DaemonHarness.defaultTrusted,
                      descriptions: (([String]) -> [String?]) = hostileNames) async throws -> CompletionLibrary {
        let oddRoots = try TemporaryDirectory()
        let odd = oddRoots.file("odd\nroot")
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        let daemon = try DaemonHarness(arguments: ["--root", odd], trusted: trusted)
        let library = CompletionLibrary(daemon: daemon, oddRoots: oddRoots)
        for (index, name) in descriptions(library.pwned).enumerated() { try daemon.add("p\(index).jpg", Photo.jpeg(name)) }
        try await daemon.start()
        return library
    }

    /// The shells' environment: the daemon's, with the built photoctl first on PATH.
    var environment: [String: String] {
        daemon.environment.merging(["PATH": Binaries.productsFolder.path + ":/usr/bin:/bin"]) { _, new in new }
    }

    /// photoctl's completion script for `shell`, written as `name`.
    func script(_ shell: String, as name: String) async throws -> String {
        let generated = try await daemon.photoctl(["--generate-completion-script", shell])
        guard generated.status == 0 else { throw HarnessError.commandFailed(["--generate-completion-script"], 1, generated.stderr) }
        return try daemon.dir.write(name, Array(generated.stdout.utf8))
    }

    /// What bash offers (COMPREPLY) for the command line `words`, the last one being completed.
    func bash(_ words: [String], environment extra: [String: String] = [:]) async throws -> [String] {
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _photoctl photoctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\0' "${COMPREPLY[@]}"
            """
        let result = try await ProcessRunner.run("/bin/bash", ["--norc", "--noprofile", "-c", program, "bash",
                                                         try script("bash", as: "photoctl.bash")] + words,
                                           environment: environment.merging(extra) { _, new in new })
        guard result.status == 0 else { throw HarnessError.commandFailed(words, result.status, result.stderr) }
        return result.stdout.split(separator: "\0").map(String.init)
    }

    func expectNothingRan(sourceLocation: SourceLocation = #_sourceLocation) {
        for file in pwned {
            #expect(!FileManager.default.fileExists(atPath: file), "a name ran code", sourceLocation: sourceLocation)
        }
    }
}

@Suite(.serialized) struct CompletionTests {
    @Test func bashOffersTheGroupNamesAsLiteralWords() async throws {
        let library = try await CompletionLibrary.start()
        let beach = library.offered.filter { $0.hasPrefix("Beach") }
        await #expect(Set(try library.bash(["photoctl", "list", "Beach"])) == beach)
        await #expect(try library.bash(["photoctl", "list", "Beach\\ T"]) == ["Beach Trip"])
        await #expect(try library.bash(["photoctl", "list", "\"Beach: "]) == ["Beach: colon"])
        await #expect(try library.bash(["photoctl", "list", "'Beach $"]) == ["Beach $(touch \(library.pwned[0]))"])
        await #expect(Set(try library.bash(["photoctl", "list", ""])) == library.offered)
        library.expectNothingRan()
    }

    @Test func bashOffersIdsAppsRootsAndOptionValuesFromTheSocketOnTheLine() async throws {
        let library = try await CompletionLibrary.start()
        let daemon = library.daemon
        let ids = try await daemon.photoctlJSON(["list"]).assets.compactMap { $0["id"] as? String }
        let id = try #require(ids.first)
        let prefix = String(id.prefix(2))
        let expected = Set(ids.filter { $0.hasPrefix(prefix) })
        for command in ["show", "thumbnail", "open", "export"] {
            await #expect(Set(try library.bash(["photoctl", command, prefix])) == expected, "\(command)")
        }
        await #expect(try library.bash(["photoctl", "permissions", "allow", "app", "--group", "Hi"]) == ["Hike"])
        await #expect(try library.bash(["photoctl", "find", "--group", "Hi"]) == ["Hike"])
        await #expect(Set(try library.bash(["photoctl", "permissions", "allow", "app", "--asset", prefix])) == expected)
        // The root whose name holds a newline is left out; the library's own root is offered.
        await #expect(try library.bash(["photoctl", "rescan", ""]) == [daemon.library])
        // --socket on the line wins over PHOTOD_SOCKET.
        await #expect(try library.bash(["photoctl", "list", "--socket", daemon.socket, "Hi"],
                                 environment: ["PHOTOD_SOCKET": daemon.dir.file("nowhere")]) == ["Hike"])

        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "to test completion"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        await #expect(try library.bash(["photoctl", "permissions", "show", "script:"]) == [try app.appID])
        await #expect(try library.bash(["photoctl", "permissions", "prompt", "--app", "sc"]) == [try app.appID])
    }

    /// The fallback group comes as `groups` shows it, apart from a group described "Other".
    @Test func theFallbackGroupIsOfferedAsGroupsShowsIt() async throws {
        let library = try await CompletionLibrary.start(trusted: []) { _ in [nil, "Other", "Beach"] }
        await #expect(try library.bash(["photoctl", "list", ""]) == ["Beach", "Other", "Other (no description)"])
        await #expect(try library.bash(["photoctl", "list", "Other\\ ("]) == ["Other (no description)"])
        await #expect(try library.bash(["photoctl", "permissions", "allow", "app", "--group", "O"])
                == ["Other", "Other (no description)"])
        let listed = try await library.daemon.photoctlJSON(["list", "Other (no description)"]).assets
        #expect(listed.compactMap { $0["path"] as? String } == [library.daemon.library + "/p0.jpg"])

        let app = try PythonApp(socket: library.daemon.socket, directory: library.daemon.dir)
        _ = try await library.daemon.photoctlJSON(["permissions", "allow", try app.appID, "--group", "Other (no description)"])
        let limited = try await app.call("io.photod.Library.Complete", #"{"kind": "group", "prefix": "Oth"}"#)
        #expect(limited["candidates"] as? [String] == [] && limited["fallback"] as? String == "Other", "\(limited)")
        let elsewhere = try await app.call("io.photod.Library.Complete", #"{"kind": "group", "prefix": "B"}"#)
        #expect(elsewhere["candidates"] as? [String] == [] && elsewhere["fallback"] == nil, "\(elsewhere)")
    }

    @Test func withoutPhotodACompletionOffersAndPrintsNothing() async throws {
        let library = try await CompletionLibrary.start()
        let nowhere = ["PHOTOD_SOCKET": library.daemon.dir.file("nowhere")]
        await #expect(try library.bash(["photoctl", "list", ""], environment: nowhere).isEmpty)
        for shell in ["bash", "fish"] {
            let direct = try await ProcessRunner.run(Binaries.photoctl, ["---completion", "list", "--", "positional@0", "2", "0",
                                                                   "photoctl", "list", ""],
                                               environment: library.environment.merging(nowhere.merging(["SAP_SHELL": shell]) { $1 }) { $1 })
            #expect(direct.status == 0 && direct.stdout.isEmpty && direct.stderr.isEmpty,
                    "\(shell): \(direct.status) \(direct.stdout) \(direct.stderr)")
        }
    }

    /// The Complete method itself: a limited app gets its selection only, app ids and roots are
    /// the owner's, and each parameter is bounded.
    @Test func limitedAppsCompleteOnlyTheirSelection() async throws {
        let library = try await CompletionLibrary.start(trusted: [])
        let daemon = library.daemon
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let method = "io.photod.Library.Complete"
        await #expect(try app.error(of: method, #"{"kind": "group", "prefix": ""}"#) == "io.photod.Library.AuthorizationRequired")

        _ = try await daemon.photoctlJSON(["permissions", "allow", try app.appID, "--group", "Hike"])
        await #expect(try app.call(method, #"{"kind": "group", "prefix": ""}"#)["candidates"] as? [String] == ["Hike"])
        await #expect(try app.call(method, #"{"kind": "group", "prefix": "Beach"}"#)["candidates"] as? [String] == [])
        let hike = try await daemon.photoctlJSON(["list", "Hike"]).assets.compactMap { $0["id"] as? String }
        await #expect(try app.call(method, #"{"kind": "asset", "prefix": ""}"#)["candidates"] as? [String] == hike)
        await #expect(try app.error(of: method, #"{"kind": "app", "prefix": ""}"#) == "io.photod.Library.OwnerOnly")
        await #expect(try app.error(of: method, #"{"kind": "root", "prefix": ""}"#) == "io.photod.Library.OwnerOnly")
        // photoctl --as-app acts for the program that ran it (bash here), which may see nothing.
        await #expect(try library.bash(["photoctl", "--as-app", "list", ""]).isEmpty)
        await #expect(Set(try library.bash(["photoctl", "list", ""])) == library.offered)

        _ = try await daemon.photoctlJSON(["permissions", "allow", try app.appID])
        let two = try await app.call(method, #"{"kind": "group", "prefix": "Beach", "limit": 2}"#)["candidates"] as? [String]
        // Every name, exactly as it is (photoctl leaves out what a shell cannot take), in byte order.
        let sorted = library.groups.filter { $0.hasPrefix("Beach") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(two == Array(sorted.prefix(2)), "sorted by bytes, at most the limit")
        let long = String(repeating: "x", count: 4097)
        await #expect(try app.error(of: method, #"{"kind": "group", "prefix": "\#(long)"}"#) == "org.varlink.service.InvalidParameter")
        await #expect(try app.error(of: method, #"{"kind": "group", "prefix": "", "limit": 0}"#) == "org.varlink.service.InvalidParameter")
        await #expect(try app.error(of: method, #"{"kind": "group", "prefix": "", "limit": 1001}"#) == "org.varlink.service.InvalidParameter")
    }

    @Test func fishCompletesInATerminalAndTheCommandRuns() async throws {
        let library = try await CompletionLibrary.start()
        let script = try await library.script("fish", as: "photoctl.fish")
        let fish = try await TmuxShell(["fish", "--no-config", "--init-command",
                                  "set -g fish_greeting; function fish_prompt; echo '> '; end; source \(script)"],
                                 environment: library.environment)
        try await expectCompletions(in: fish, library: library)
    }

    @Test func zshCompletesInATerminalAndTheCommandRuns() async throws {
        let library = try await CompletionLibrary.start()
        _ = try await library.script("zsh", as: "zsh/_photoctl")
        try library.daemon.dir.write("zsh/.zshrc", Array("""
            fpath=(\(library.daemon.dir.file("zsh")) $fpath)
            autoload -U compinit && compinit -u -D
            PS1='> '
            """.utf8))
        let environment = library.environment.merging(["ZDOTDIR": library.daemon.dir.file("zsh")]) { $1 }
        let zsh = try await TmuxShell(["zsh"], environment: environment)
        try await expectCompletions(in: zsh, library: library)
    }

    /// Names a shell would expand where they stand bare: each shell inserts them quoted, and the
    /// completed command lists the group's own photo (p0.jpg for `$HOME`, p1.jpg for `~root`).
    @Test func namesStartingWithDollarOrTildeAreInsertedQuoted() async throws {
        let library = try await CompletionLibrary.start(trusted: []) { _ in ["$HOME", "~root", "Hike"] }
        let bashScript = try await library.script("bash", as: "photoctl.bash")
        let rc = try library.daemon.dir.write("bashrc", Array("PS1='> '\nsource \(bashScript)\n".utf8))
        let bash = try await TmuxShell(["/bin/bash", "--noprofile", "--rcfile", rc, "-i"], environment: library.environment)
        // bash quotes for the quotes the word is in; inside single quotes nothing expands.
        try await expectQuoted(in: bash, typed: "'$H", inserted: "'$HOME'", listing: "p0.jpg")
        try await expectQuoted(in: bash, typed: "\"$H", inserted: "\"\\$HOME\"", listing: "p0.jpg")

        let fishScript = try await library.script("fish", as: "photoctl.fish")
        let fish = try await TmuxShell(["fish", "--no-config", "--init-command",
                                  "set -g fish_greeting; function fish_prompt; echo '> '; end; source \(fishScript)"],
                                 environment: library.environment)
        _ = try await library.script("zsh", as: "zsh/_photoctl")
        try library.daemon.dir.write("zsh/.zshrc", Array("""
            fpath=(\(library.daemon.dir.file("zsh")) $fpath)
            autoload -U compinit && compinit -u -D
            PS1='> '
            """.utf8))
        let zsh = try await TmuxShell(["zsh"], environment: library.environment.merging(["ZDOTDIR": library.daemon.dir.file("zsh")]) { $1 })
        for shell in [bash, fish, zsh] {
            try await expectQuoted(in: shell, typed: "\\$H", inserted: "\\$HOME", listing: "p0.jpg")
            try await expectQuoted(in: shell, typed: "\\~r", inserted: "\\~root", listing: "p1.jpg")
        }
    }

    /// Completes `photoctl list TYPED`, expects `photoctl list INSERTED` on the line and, once
    /// run, the photo `listing` listed (the name reached photoctl unexpanded).
    private func expectQuoted(in shell: TmuxShell, typed: String, inserted: String, listing: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await shell.expectScreen(containing: "> ", "no prompt", sourceLocation: sourceLocation)
        // Each shell's clear-screen key: what an earlier round showed must not satisfy this one.
        try await shell.press("C-l")
        try await shell.type("photoctl list " + typed)
        try await shell.press("Tab")
        let line = await shell.wait { $0.contains("photoctl list " + inserted) }
        #expect(line.satisfied, "\(line.screen)", sourceLocation: sourceLocation)
        try await shell.press("C-e")
        try await shell.type(" --no-pager")
        try await shell.press("Enter")
        let ran = await shell.wait { $0.contains("/library/" + listing) }
        #expect(ran.satisfied, "\(ran.screen)", sourceLocation: sourceLocation)
        try await shell.press("C-u")
    }

    /// Two script apps that differ only in their script's name (issue 26): the name completes
    /// by itself, in the form `permissions allow` takes; a component both share does not.
    static let scripts = ["calendar.sh", "contacts.sh"].map { "script:/usr/bin/bash:/home/ann/bin/" + $0 }

    @Test func appIdsCompleteByTheComponentOnlyTheyHave() async throws {
        let library = try await CompletionLibrary.start()
        for id in Self.scripts {
            _ = try await library.daemon.photoctlJSON(["permissions", "deny", id])
        }
        await #expect(try library.bash(["photoctl", "permissions", "allow", "cal"]) == ["calendar.sh"])
        await #expect(try library.bash(["photoctl", "permissions", "allow", "co"]) == ["contacts.sh"])
        await #expect(try library.bash(["photoctl", "permissions", "prompt", "--app", "cal"]) == ["calendar.sh"])
        // "bash" and "ann" name both apps: offering them would complete to an ambiguous name.
        await #expect(try library.bash(["photoctl", "permissions", "allow", "ba"]).isEmpty)
        await #expect(try library.bash(["photoctl", "permissions", "allow", "an"]).isEmpty)
        // Whole ids still complete from their start.
        await #expect(Set(try library.bash(["photoctl", "permissions", "allow", "script:"])) == Set(Self.scripts))
        // The completed word names the app.
        let allowed = try await library.daemon.photoctl(["permissions", "allow", "calendar.sh"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains(Self.scripts[0]))

        for shell in ["zsh", "fish"] {
            let terminal: TmuxShell
            if shell == "fish" {
                let script = try await library.script("fish", as: "photoctl.fish")
                terminal = try await TmuxShell(["fish", "--no-config", "--init-command",
                                          "set -g fish_greeting; function fish_prompt; echo '> '; end; source \(script)"],
                                         environment: library.environment)
            } else {
                _ = try await library.script("zsh", as: "zsh/_photoctl")
                try library.daemon.dir.write("zsh/.zshrc", Array("""
                    fpath=(\(library.daemon.dir.file("zsh")) $fpath)
                    autoload -U compinit && compinit -u -D
                    PS1='> '
                    """.utf8))
                terminal = try await TmuxShell(["zsh"], environment: library.environment.merging(
                    ["ZDOTDIR": library.daemon.dir.file("zsh")]) { $1 })
            }
            await terminal.expectScreen(containing: "> ", "\(shell): no prompt")
            try await terminal.type("photoctl permissions reset con")
            try await terminal.press("Tab")
            await terminal.expectScreen(containing: "photoctl permissions reset contacts.sh", "\(shell)")
        }
    }

    /// Tab completes a group and an app id (colons and all) on the command line, and the
    /// completed command runs: the hostile name reached photoctl as one literal word.
    private func expectCompletions(in shell: TmuxShell, library: CompletionLibrary) async throws {
        await shell.expectScreen(containing: "> ", "no prompt")
        try await shell.type("photoctl list Hi")
        try await shell.press("Tab")
        await shell.expectScreen(containing: "photoctl list Hike")
        try await shell.press("C-u")
        try await shell.type("photoctl list Beach\\ \\$")
        try await shell.press("Tab")
        let escaped = #"Beach\ \$\(touch\ "#
        await shell.expectScreen(containing: escaped)
        try await shell.press("Enter")
        // The group's one photo is p1.jpg: listed, so photoctl got the name as one literal word.
        let ran = await shell.wait { $0.contains("/library/p1.jpg") }
        #expect(ran.satisfied, "\(ran.screen)")
        library.expectNothingRan()

        let app = try PythonApp(socket: library.daemon.socket, directory: library.daemon.dir)
        let request = try app.stream(["request", "to test completion"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        try await shell.type("clear; photoctl permissions show scr")
        try await shell.press("Tab")
        let appID = try await app.appID
        await shell.expectScreen(containing: "photoctl permissions show \(appID)")
    }
}
