#if canImport(Glibc)
import Glibc
#endif
import PhotoAPI
import Testing

@testable import PhotoCommands

/// `photoctl permissions` at 80 columns (issue 26): two script apps that differ only in their
/// script's name stay told apart, because the label and reason give way first and the id loses
/// its middle, never its end.
@Suite struct PermissionsTableFitTests {
    static let folder = "script:/usr/bin/bash:/home/ann/bin/"

    static func apps() -> [App] {
        [App(id: folder + "calendar.sh", uid: Int(getuid()), label: "Calendar sync for the whole family",
             status: .notDetermined, reason: "to put your photos into the calendar's events", pending: true),
         App(id: folder + "contacts.sh", uid: Int(getuid()), label: "Contacts", status: .authorized,
             reason: "to show a face beside each contact", pending: false)]
    }

    @Test func atEightyColumnsEachScriptKeepsItsNameAndTheFreeTextGivesWay() throws {
        let style = OutputStyle.decide(full: false, legend: true, environment: ["COLUMNS": "80"],
                                       terminal: TerminalFacts(outputIsTerminal: false, errorIsTerminal: false, columns: nil))
        #expect(style.width == 80)
        let lines = PermissionsListCommand.tableText(Self.apps(), style: style).split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines { #expect(TerminalWidth.of(String(line)) <= 80, "\(line)") }
        let calendar = try #require(lines.first { $0.contains("calendar.sh") }, "\(lines)")
        let contacts = try #require(lines.first { $0.contains("contacts.sh") }, "\(lines)")
        // The id keeps its kind and its end; the label and reason were cut before it.
        #expect(calendar.hasPrefix("script:/usr/bin/"))
        #expect(contacts.hasPrefix("script:/usr/bin/"))
        #expect(!calendar.contains("Calendar sync for the whole family"))
        #expect(!calendar.contains("calendar's events"))
        // With room, nothing is cut at all.
        let wide = PermissionsListCommand.tableText(Self.apps(), style: .plain)
        #expect(wide.contains(Self.folder + "calendar.sh") && wide.contains("Calendar sync for the whole family"))
    }
}
