import Foundation
import PhotoTestSupport
import Testing

/// photoctl's help: the global options once at the top, and in a command's help only those
/// that change what it does; examples where a person starts.
@Suite struct HelpTextTests {
    private static let globals = ["--socket", "--service-user", "--as-app", "--json", "--full", "--no-legend", "--no-pager"]

    private func help(_ arguments: [String]) async throws -> String {
        let result = try await ProcessRunner.run(Binaries.photoctl, arguments, environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// How many lines of `text` list `option` (as an entry: at the start, after two spaces).
    private func entries(of option: String, in text: String) -> Int {
        text.split(separator: "\n").filter { $0.hasPrefix("  " + option + " ") || $0 == "  " + option }.count
    }

    @Test func theTopLevelHelpListsEveryGlobalOptionOnceWithExamples() async throws {
        let text = try await help(["--help"])
        for option in Self.globals {
            #expect(entries(of: option, in: text) == 1, "\(option) once: \(text)")
        }
        #expect(text.contains("Examples:") && text.contains("photoctl find beach 2019 -0 | xargs -0"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "fits 80 columns: \(text)")
    }

    @Test(arguments: [
        (["list", "--help"], ["--as-app", "--json", "--full", "--no-legend", "--no-pager"]),
        (["watch", "--help"], ["--as-app", "--json", "--full"]),
        (["help", "thumbnail"], ["--as-app", "--json"]),
        (["export", "-h"], ["--as-app"]),
        (["permissions", "allow", "--help"], ["--json"]),
        (["permissions", "prompt", "--help"], []),
    ])
    func aCommandsHelpNamesOnlyTheGlobalOptionsThatApply(arguments: [String], applying: [String]) async throws {
        let text = try await help(arguments)
        for option in Self.globals {
            #expect(entries(of: option, in: text) == (applying.contains(option) ? 1 : 0), "\(arguments) \(option): \(text)")
        }
        let usage = try #require(text.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(!usage.contains("--socket") && !usage.contains("--no-pager"), "\(usage)")
        #expect(text.contains("--socket, --service-user"), "the rest is pointed to: \(text)")
    }

    @Test func helpOfCommandsPeopleStartWithHasExamples() async throws {
        for command in ["find", "thumbnail", "export"] {
            let text = try await help([command, "--help"])
            #expect(text.contains("Example"), "\(command): \(text)")
        }
    }
}
