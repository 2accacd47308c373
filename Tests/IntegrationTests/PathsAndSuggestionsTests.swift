import Foundation
import PhotoTestSupport
import Testing

/// Paths as people type them (relative to where they are), and "did you mean" for what they
/// mistype: unknown commands, roots and config keys.
@Suite(.serialized) struct PathsAndSuggestionsTests {
    /// Runs `executable` with `arguments` in `folder`, as a person at a shell there would.
    private func run(in folder: String, _ executable: String, _ arguments: [String],
                     environment: [String: String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder, executable] + arguments,
                              environment: environment)
    }

    @Test func rescanTakesAPathFromTheWorkingFolderAndAWrongOneListsTheRoots() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        try FileManager.default.createSymbolicLink(atPath: daemon.dir.file("link"), withDestinationPath: daemon.library)
        for path in ["library", "./library/", "config/../library", "link", daemon.library + "/"] {
            let result = try await run(in: daemon.dir.path, Binaries.photoctl, ["rescan", path], environment: daemon.environment)
            #expect(result.status == 0 && result.stdout.contains("Rescanned: 1 files"), "\(path): \(result.stderr)")
        }
        let wrong = try await run(in: daemon.library, Binaries.photoctl, ["rescan", "elsewhere"], environment: daemon.environment)
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "photoctl: \(daemon.library)/elsewhere is not a root of the library; its roots are:\n"
                + "  \(daemon.library)\n", "\(wrong.stderr)")
        let json = try await daemon.photoctl(["rescan", "/nowhere"])
        #expect(json.status == 1 && json.stderr.contains("its roots are:\n  \(daemon.library)"))
    }

    @Test func photodTakesARelativeRootFromTheFolderItStartsIn() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("photos/a.jpg", Photo.jpeg("A"))
        let environment = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_RUNTIME_DIR": dir.file("run"), "HOME": dir.path,
                           "PHOTOD_SOCKET": dir.file("run/s")]
        let photod = try StreamingProcess("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", dir.path, Binaries.photod,
                                                      "--root", "photos", "--database", "state/index.sqlite",
                                                      "--socket", "run/s"],
                                          environment: environment, directory: dir, name: "photod")
        var status: [String: Any] = [:]
        let ready = await eventually(within: 30) {
            status = (try? await ProcessRunner.run(Binaries.photoctl, ["status", "--json"], environment: environment).json()) ?? [:]
            return status["state"] as? String == "ready"
        }
        #expect(ready, "\(photod.stderr)")
        let roots = (status["roots"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(roots == [dir.file("photos")])
        #expect(status["assets"] as? Int == 1)
        #expect(FileManager.default.fileExists(atPath: dir.file("state/index.sqlite")))
    }

    @Test func anUnknownCommandSaysWhichItWasLikelyMeantToBe() async throws {
        let cases: [([String], String)] = [
            (["lsit", "Beach"], "photoctl: unknown command \"lsit\"; did you mean \"list\"?\n"),
            (["--json", "grops"], "photoctl: unknown command \"grops\"; did you mean \"groups\"?\n"),
            (["permissions", "alow", "app"], "photoctl permissions: unknown command \"alow\"; did you mean \"allow\" or \"show\"?\n"),
            (["frobnicate"], "photoctl: unknown command \"frobnicate\" (see `photoctl --help`)\n"),
        ]
        for (arguments, message) in cases {
            let result = try await ProcessRunner.run(Binaries.photoctl, arguments, environment: ["PHOTOD_SOCKET": "/nonexistent"])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // A word that is an argument, not a command, keeps ArgumentParser's own message.
        let argument = try await ProcessRunner.run(Binaries.photoctl, ["list", "a", "b"], environment: ["PHOTOD_SOCKET": "/nonexistent"])
        #expect(argument.status == 2 && argument.stderr.contains("Unexpected argument 'b'"), "\(argument.stderr)")
    }

    @Test func anUnknownConfigKeySaysWhichItWasLikelyMeantToBe() async throws {
        let (config, result) = try await ConfigRefusal.run("max_conections = 3\n", in: TemporaryDirectory())
        #expect(result.status == 78)
        #expect(result.stderr == "photod: bad config: \(config): max_conections: unknown key; did you mean "
                + "\"max_connections\"? (see config/photod.toml for the keys photod reads)\n", "\(result.stderr)")
    }
}
