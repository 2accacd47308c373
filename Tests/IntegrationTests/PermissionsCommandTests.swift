import Foundation
import PhotoTestSupport
import Testing

/// The permissions verbs beyond allow/deny, through the real photoctl: show, reset --all,
/// request --timeout, a selection that matches nothing, and ids that cover many programs.
@Suite(.serialized) struct PermissionsCommandTests {
    /// A daemon over Beach ×2 and Hike ×1, where only photoctl is the owner.
    static func library(permissions: String = "") async throws -> DaemonHarness {
        let daemon = try DaemonHarness(trusted: [], permissions: permissions)
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("beach/2.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/3.jpg", Photo.jpeg("Hike"))
        try await daemon.start()
        return daemon
    }

    /// The app record photoctl lists for `id`.
    static func listed(_ daemon: DaemonHarness, _ id: String) async throws -> [String: Any]? {
        try await (daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    @Test func showTellsStatusReasonLabelSelectionWithCountsAndWhoDecided() async throws {
        let daemon = try await Self.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "to print a beach calendar"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        let hike = try #require(try await daemon.photoctlJSON(["list", "Hike"]).ids(relativeTo: daemon.library)["hike/3.jpg"])
        _ = try await daemon.photoctlJSON(["permissions", "allow", "viewer.py", "--group", "Beach", "--asset", hike])
        await #expect(request.exitStatus() == 0)

        let shown = try await daemon.photoctl(["permissions", "show", "viewer.py"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let text = shown.stdout
        #expect(text.contains("\"Test Viewer\" (declared by the app)"), "\(text)")
        #expect(text.contains("limited") && text.contains("to print a beach calendar"), "\(text)")
        #expect(text.contains("Beach (2 photos)"), "\(text)")
        #expect(text.contains(hike + "  " + daemon.library + "/hike/3.jpg"), "\(text)")
        #expect(text.contains("by exe:" + Binaries.photoctl), "\(text)")
        #expect(!text.contains("warning"), "a script is one program: \(text)")

        let json = try #require(try await daemon.photoctlJSON(["permissions", "show", "viewer.py"])["app"] as? [String: Any])
        #expect(json["decidedBy"] as? String == "exe:" + Binaries.photoctl)
        #expect(json["groups"] as? [String] == ["Beach"])
        let unknown = try await daemon.photoctl(["permissions", "show", "nothing-like-it"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no app matches"), "\(unknown.stderr)")
    }

    @Test func aGroupOrAssetThatMatchesNothingIsAnErrorNamingTheClosest() async throws {
        let daemon = try await Self.library()
        let typo = try await daemon.photoctl(["permissions", "allow", "exe:/usr/bin/gimp", "--group", "Beahc"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("no group named \"Beahc\"; closest: \"Beach\""), "\(typo.stderr)")
        let far = try await daemon.photoctl(["permissions", "allow", "exe:/usr/bin/gimp", "--group", "Zebra crossing"])
        #expect(far.status == 1 && far.stderr.contains("none is near it (see `photoctl groups`)"), "\(far.stderr)")

        let beach = try #require(try await daemon.photoctlJSON(["list", "Beach"]).ids(relativeTo: daemon.library)["beach/1.jpg"])
        let wrong = String(beach.dropLast()) + (beach.last == "0" ? "1" : "0")
        let asset = try await daemon.photoctl(["permissions", "allow", "exe:/usr/bin/gimp", "--asset", wrong])
        #expect(asset.status == 1 && asset.stderr.contains("no asset with id \(wrong); closest: \"\(beach)\""), "\(asset.stderr)")
        await #expect(try Self.listed(daemon, "exe:/usr/bin/gimp") == nil, "a refused decision keeps no record")
    }

    @Test func allowingAShellOrAnInterpreterWithoutAScriptAsksForConfirmation() async throws {
        let daemon = try await Self.library()
        // No terminal: refused, with the warning and how to confirm.
        let refused = try await daemon.photoctl(["permissions", "allow", "exe:/usr/bin/bash"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("every command typed into bash"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
        await #expect(try Self.listed(daemon, "exe:/usr/bin/bash") == nil)

        let allowed = try await daemon.photoctlJSON(["permissions", "allow", "exe:/usr/bin/bash", "--yes"])
        #expect(allowed["status"] as? String == "authorized")
        #expect((allowed["warning"] as? String)?.contains("bash") == true)
        let shown = try await daemon.photoctl(["permissions", "show", "bash"])
        #expect(shown.stdout.contains("warning") && shown.stdout.contains("every command typed into bash"), "\(shown.stdout)")
        // Denying needs no confirmation; neither does a limited selection's refusal of a typo.
        await #expect(try daemon.photoctlJSON(["permissions", "deny", "exe:/usr/bin/python3"])["status"] as? String == "denied")
    }

    @Test func resetAllSendsEveryDecidedAppBackAndLeavesRestrictedOnes() async throws {
        let daemon = try await Self.library(permissions: #"restricted = ["exe:/usr/bin/evil"]"#)
        _ = try await daemon.photoctlJSON(["permissions", "allow", "exe:/usr/bin/gimp"])
        _ = try await daemon.photoctlJSON(["permissions", "deny", "exe:/usr/bin/darktable"])
        _ = try await daemon.photoctlJSON(["permissions", "allow", "exe:/usr/bin/shotwell", "--group", "Hike"])
        let evil = try await daemon.photoctl(["permissions", "deny", "exe:/usr/bin/evil"])
        #expect(evil.status == 1, "a restricted app cannot be decided: \(evil.stderr)")

        let usage = try await daemon.photoctl(["permissions", "reset"])
        #expect(usage.status == 2 && usage.stderr.contains("--all"), "\(usage.stderr)")
        await #expect(try daemon.photoctl(["permissions", "reset", "--all", "gimp"]).status == 2)

        let reset = try await daemon.photoctl(["permissions", "reset", "--all"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("Reset 3 apps."), "\(reset.stdout)")
        for id in ["exe:/usr/bin/gimp", "exe:/usr/bin/darktable", "exe:/usr/bin/shotwell"] {
            let app = try #require(try await Self.listed(daemon, id))
            #expect(app["status"] as? String == "notDetermined", "\(id)")
            #expect(app["groups"] as? [String] == [], "\(id)")
            #expect(app["decidedBy"] as? String == "exe:" + Binaries.photoctl, "\(id)")
        }
        let again = try await daemon.photoctl(["permissions", "reset", "--all"])
        #expect(again.stdout.contains("Reset 0 apps."), "\(again.stdout)")
    }

    @Test func requestGivesUpAfterItsTimeoutAndWithdrawsTheRequest() async throws {
        let daemon = try await Self.library()
        let script = try daemon.dir.write("ask.sh", Array("""
            #!/bin/bash
            "$PHOTOCTL" request --reason "a quick look" --timeout 1.5
            """.utf8))
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let started = Date()
        let run = try StreamingProcess("/bin/bash", [script], environment: environment, directory: daemon.dir, name: "ask")
        await #expect(run.exitStatus(timeout: 30) == 1)
        #expect(Date().timeIntervalSince(started) >= 1.5)
        #expect(run.stderr.contains("no answer within 1.5 s; the request was withdrawn"), "\(run.stderr)")
        // The daemon saw the connection close: nothing is left waiting for the owner.
        let withdrawn = try await eventually(within: 30, every: .milliseconds(100)) {
            let apps = try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]] ?? []
            return !apps.contains { ($0["id"] as? String)?.hasSuffix("/ask.sh") == true && $0["pending"] as? Bool == true }
        }
        #expect(withdrawn, "the request still waits for the owner")

        for bad in ["0", "-1", "nan", "100000"] {
            let refused = try await daemon.photoctl(["request", "--reason", "x", "--timeout", bad])
            #expect(refused.status == 2, "--timeout \(bad): \(refused.stderr)")
        }
    }

    @Test func promptForOneAppWarnsAboutAShellAndAllowsOnlyOnceConfirmed() async throws {
        let daemon = try await Self.library()
        // photoctl request run by bash -c: the app is the shell itself, exe:…/bash.
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let request = try StreamingProcess("/bin/bash", ["-c", #""$PHOTOCTL" request --reason "from my shell"; exit $?"#],
                                           environment: environment, directory: daemon.dir, name: "shell")
        var shell: [String: Any]?
        try await eventually(within: 30, every: .milliseconds(100)) {
            shell = try await (daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])?.first { $0["pending"] as? Bool == true }
            return shell != nil
        }
        let id = try #require(shell?["id"] as? String, "the shell's request never arrived")
        #expect(id.hasPrefix("exe:") && id.hasSuffix("/bash"), "\(id)")

        let helper = try daemon.dir.write("terminal.py", Array(PermissionsPromptTests.terminal.utf8))
        var terminal = daemon.environment
        terminal["PROMPT_ARGS"] = ["permissions", "prompt", "--app", id].joined(separator: "\n")
        let prompt = try await ProcessRunner.run("/usr/bin/env", [
            "python3", helper, Binaries.photoctl,
            "[a]llow / [l]imited / [d]eny / [s]kip", "a",
            "Type yes to confirm", "no",
            "[a]llow / [l]imited / [d]eny / [s]kip", "a",
            "Type yes to confirm", "yes",
        ], environment: terminal)
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        #expect(prompt.stdout.contains("Careful: this is the shell bash"), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("Not allowed."), "\(prompt.stdout)")
        await #expect(request.exitStatus(timeout: 30) == 0, "\(request.stderr)")
        #expect(request.lines.last == "authorized", "\(request.lines)")

        // The app no longer waits: the prompt for it says so and stops.
        let idle = try await ProcessRunner.run("/usr/bin/env", ["python3", helper, Binaries.photoctl], environment: terminal)
        #expect(idle.stdout.contains("is not waiting for an answer (it is authorized)"), "\(idle.stdout)\n\(idle.stderr)")
    }
}
