import Foundation
import PhotoTestSupport
import Testing

/// photoctl(1) and photod-notify(1) against the programs' own help: every command and option
/// the help lists is in the manual, so the manual cannot fall behind an option added later.
@Suite struct ManualTests {
    private static func manual(_ name: String) throws -> String {
        try String(contentsOf: Binaries.repository.appendingPathComponent("packaging/man/man1/\(name)"), encoding: .utf8)
    }

    /// The subcommand names a help text lists under SUBCOMMANDS.
    private static func subcommands(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first?
            .components(separatedBy: "\n\n").first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
            return word.hasPrefix("-") ? nil : String(word)
        }
    }

    /// The long options a help text lists under OPTIONS (ArgumentParser's own left out).
    private static func options(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "OPTIONS:\n").dropFirst().first?
            .components(separatedBy: "\n\n").first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            let names = line.split(separator: " ").filter { $0.hasPrefix("--") }.map { String($0.trimmingCharacters(in: [","])) }
            return names.first
        }.filter { $0 != "--help" && $0 != "--version" }
    }

    private static func help(_ program: String, _ arguments: [String]) async throws -> String {
        let result = try await ProcessRunner.run(program, arguments + ["--help"], environment: ["COLUMNS": "200"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    @Test func photoctlsManualHasEveryCommandAndOption() async throws {
        let page = try Self.manual("photoctl.1")
        var commands: [[String]] = []
        var queue: [[String]] = [[]]
        while let path = queue.popLast() {
            let text = try await Self.help(Binaries.photoctl, path)
            if !path.isEmpty { commands.append(path) }
            for option in Self.options(in: text) {
                #expect(page.contains(option.replacing("-", with: "\\-")), "photoctl \(path.joined(separator: " ")) \(option)")
            }
            queue += Self.subcommands(in: text).map { path + [$0] }
        }
        #expect(commands.count >= 25, "\(commands)")
        for command in commands {
            let name = command.joined(separator: " ").replacing("-", with: "\\-")
            #expect(page.contains(name), "photoctl \(command.joined(separator: " ")) is in the manual")
        }
        for global in ["\\-\\-socket", "\\-\\-service\\-user", "\\-\\-as\\-app", "\\-\\-json", "\\-\\-full", "\\-\\-no\\-legend",
                       "\\-\\-no\\-pager"] {
            #expect(page.contains(".BI " + global) || page.contains(".B " + global), "\(global) has its entry")
        }
        for section in ["ENVIRONMENT", "FILES", "EXAMPLES", "EXIT STATUS"] {
            #expect(page.contains(".SH " + section))
        }
    }

    @Test func photodNotifysManualHasEveryOption() async throws {
        let page = try Self.manual("photod-notify.1")
        let notify = Binaries.productsFolder.appendingPathComponent("photod-notify").path
        let options = Self.options(in: try await Self.help(notify, []))
        #expect(options.contains("--socket"), "\(options)")
        for option in options + ["--version"] {
            #expect(page.contains(option.replacing("-", with: "\\-")), "\(option)")
        }
    }
}
