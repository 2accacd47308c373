import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoCommands

/// Groups as people expect them (issue 15), through the real photod and photoctl: the fallback
/// label `groups` prints works in `list` and `permissions`, a photo described "Other" is a group
/// of its own, LATEST says what it is, case twins are pointed out, typos get a "did you mean".
@Suite(.serialized) struct GroupsCommandTests {
    /// photoctl against `daemon` at a fixed terminal width and time zone.
    private static func photoctl(_ daemon: DaemonHarness, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(Binaries.photoctl, arguments,
                              environment: daemon.environment.merging(["COLUMNS": "80", "TZ": "UTC"]) { _, new in new })
    }

    /// The file names of a `list --json`, sorted.
    private static func listed(_ daemon: DaemonHarness, _ arguments: [String]) async throws -> [String] {
        try await daemon.photoctlJSON(["list"] + arguments).assets
            .compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }.sorted()
    }

    @Test func listTakesTheFallbackLabelAndADescribedOtherIsAGroupApart() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("undescribed.jpg", Photo.jpeg(nil))
        try daemon.add("camera.jpg", Photo.jpeg("SONY DSC"))
        try daemon.add("described.jpg", Photo.jpeg("Other"))
        try daemon.add("beach.jpg", Photo.jpeg("Beach"))
        try await daemon.start()

        let table = try await Self.photoctl(daemon, ["groups"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout == """
            GROUP                   PHOTOS  LATEST
            Beach                        1  2021-07-04 10:30:00 (taken)
            Other                        1  2021-07-04 10:30:00 (taken)
            Other (no description)       2  2021-07-04 10:30:00 (taken)

            """)
        #expect(table.stderr.isEmpty, "no case twins here: \(table.stderr)")

        await #expect(try Self.listed(daemon, ["Other (no description)"]) == ["camera.jpg", "undescribed.jpg"])
        await #expect(try Self.listed(daemon, ["Other"]) == ["described.jpg"])
        let text = try await Self.photoctl(daemon, ["list", "Other (no description)"])
        #expect(text.status == 0 && text.stdout.contains("/undescribed.jpg") && !text.stdout.contains("/described.jpg"),
                "\(text.stdout)\(text.stderr)")
        // Rows and show name the group as groups does, so the two "Other"s are told apart.
        let rows = try await Self.photoctl(daemon, ["list", "--fields", "group,path", "--no-legend"]).stdout
        #expect(rows.split(separator: "\n").filter { $0.hasSuffix("/described.jpg") }.allSatisfy { $0.hasPrefix("Other ") })
        #expect(rows.split(separator: "\n").filter { $0.hasSuffix("/undescribed.jpg") }
            .allSatisfy { $0.hasPrefix("Other (no description) ") }, "\(rows)")
        let shown = try await Self.photoctl(daemon, ["show", daemon.library + "/camera.jpg"]).stdout
        #expect(shown.contains("Group: Other (no description)\n"), "\(shown)")
        let json = try await daemon.photoctlJSON(["list", "Other (no description)"]).assets
        #expect(json.map { $0["fallback"] as? Bool } == [true, true])
        let groups = try await daemon.photoctlJSON(["groups"])["groups"] as? [[String: Any]] ?? []
        #expect(groups.map { "\($0["name"] as? String ?? "")/\($0["fallback"] as? Bool ?? false)" }
            == ["Beach/false", "Other/false", "Other/true"])
    }

    @Test func theLabelFollowsTheConfiguredFallbackName() async throws {
        let daemon = try DaemonHarness(settings: "[groups]\nfallback = \"Unsorted\"\n")
        try daemon.add("undescribed.jpg", Photo.jpeg(nil))
        try daemon.add("beach.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        let table = try await Self.photoctl(daemon, ["groups"])
        #expect(table.stdout.contains("\nUnsorted (no description)       1  "), "\(table.stdout)")
        #expect(table.stdout.contains("\nBeach "), "\(table.stdout)")
        await #expect(try Self.listed(daemon, ["Unsorted (no description)"]) == ["undescribed.jpg"])
        await #expect(try Self.listed(daemon, ["Unsorted"]) == ["undescribed.jpg"], "the name alone, as before")
        let wrong = try await Self.photoctl(daemon, ["list", "Other (no description)"])
        #expect(wrong.status == 1, "\(wrong.stdout)")
        #expect(wrong.stderr.contains("no group named \"Other (no description)\""), "\(wrong.stderr)")
    }

    @Test func groupsThatDifferOnlyInCaseArePointedOutOnStandardError() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("Beach"))
        try daemon.add("b.jpg", Photo.jpeg("beach"))
        try daemon.add("c.jpg", Photo.jpeg("BEACH"))
        try daemon.add("d.jpg", Photo.jpeg("Hike"))
        try daemon.add("e.jpg", Photo.jpeg("other"))  // beside the fallback group "Other": apart in any case
        try daemon.add("f.jpg", Photo.jpeg(nil))
        try await daemon.start()

        let result = try await Self.photoctl(daemon, ["groups"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            GROUP                   PHOTOS  LATEST
            BEACH                        1  2021-07-04 10:30:00 (taken)
            Beach                        1  2021-07-04 10:30:00 (taken)
            beach                        1  2021-07-04 10:30:00 (taken)
            Hike                         1  2021-07-04 10:30:00 (taken)
            other                        1  2021-07-04 10:30:00 (taken)
            Other (no description)       1  2021-07-04 10:30:00 (taken)

            """, "the table itself is unchanged")
        #expect(result.stderr == """
            Hint: these groups differ only in case: "BEACH", "Beach" and "beach".
            To make each of them one group, set case_insensitive = true in the [groups] section of \
            \(daemon.dir.file("config"))/photod/photod.toml and restart photod.

            """)
        let json = try await Self.photoctl(daemon, ["groups", "--json"])
        #expect(json.status == 0 && json.stderr.isEmpty, "scripts get the data alone: \(json.stderr)")

        // With the setting on, they are one group, and nothing is pointed out.
        try daemon.writeConfig(settings: "[groups]\ncase_insensitive = true\n", trusted: DaemonHarness.defaultTrusted)
        _ = await daemon.stop()
        try await daemon.start()
        let merged = try await Self.photoctl(daemon, ["groups"])
        let rows = merged.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.contains { $0.first == "BEACH" && $0.dropFirst().first == "3" }, "the most common spelling; a tie: \(merged.stdout)")
        #expect(merged.stderr.isEmpty, "\(merged.stderr)")
    }

    @Test func latestSaysWhetherItIsACaptureOrAFileTime() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", Photo.jpeg("Beach", taken: "2021:06:05 14:03:07"))
        let scan = try daemon.add("scan.jpg", Photo.jpeg("Scans", taken: nil))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_577_934_245)],
                                              ofItemAtPath: scan)  // 2020-01-02 03:04:05 UTC
        try await daemon.start()
        let result = try await Self.photoctl(daemon, ["groups"])
        #expect(result.stdout == """
            GROUP  PHOTOS  LATEST
            Beach       1  2021-06-05 14:03:07 (taken)
            Scans       1  2020-01-02 03:04:05 (file)

            """)
        let groups = try await daemon.photoctlJSON(["groups"])["groups"] as? [[String: Any]] ?? []
        #expect(groups.map { $0["latestSource"] as? String } == ["taken", "modified"])
        #expect(groups.last?["latest"] as? String == "2020-01-02T03:04:05Z")
    }

    @Test func aGroupThatIsNotThereGetsADidYouMean() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("Beach"))
        try daemon.add("b.jpg", Photo.jpeg("Bench"))
        try daemon.add("c.jpg", Photo.jpeg("Hike"))
        try await daemon.start()
        let typo = try await Self.photoctl(daemon, ["list", "Beahc"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("no group named \"Beahc\"; did you mean \"Beach\"?"), "\(typo.stderr)")
        let two = try await Self.photoctl(daemon, ["list", "Beach "])
        #expect(two.status == 0, "white space is normalized away: \(two.stderr)")
        let several = try await Self.photoctl(daemon, ["list", "beach"])
        #expect(several.stderr.contains("did you mean \"Beach\" or \"Bench\"?"), "\(several.stderr)")
        let far = try await Self.photoctl(daemon, ["list", "Zebra crossing"])
        #expect(far.status == 1 && far.stderr.contains("no group named \"Zebra crossing\" (see `photoctl groups`)"),
                "\(far.stderr)")
    }

    @Test func permissionsTakeTheFallbackLabelAndShowIt() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("undescribed.jpg", Photo.jpeg(nil))
        try daemon.add("described.jpg", Photo.jpeg("Other"))
        try await daemon.start()
        let allowed = try await daemon.photoctlJSON(
            ["permissions", "allow", "exe:/usr/bin/viewer", "--group", "Other (no description)"])
        #expect(allowed["groups"] as? [String] == [])
        #expect(allowed["fallback"] as? Bool == true)
        let shown = try await Self.photoctl(daemon, ["permissions", "show", "exe:/usr/bin/viewer"])
        #expect(shown.stdout.contains("Other (no description) (1 photo)"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("Other (1 photo)"), "the photo described Other is not shared: \(shown.stdout)")

        let literal = try await daemon.photoctlJSON(["permissions", "allow", "exe:/usr/bin/viewer", "--group", "Other"])
        #expect(literal["groups"] as? [String] == ["Other"])
        #expect(literal["fallback"] as? Bool == false)
        let listed = try await Self.photoctl(daemon, ["permissions"])
        #expect(listed.stdout.contains("limited: groups Other"), "\(listed.stdout)")
    }

    @Test func watchLabelsTheFallbackGroupAmongTheChangedOnes() {
        let change = PhotoAPI.Change(token: 7, inserted: ["a", "b"], groupsChanged: ["Other", "Other"], fallbackChanged: true)
        #expect(ChangeLine().text(change, width: nil) == "[7] 2 added: a, b; groups changed: Other (no description), Other")
        let plain = PhotoAPI.Change(token: 8, removed: ["a"], groupsRemoved: ["Other"])
        #expect(ChangeLine().text(plain, width: nil) == "[8] removed a; groups emptied: Other")
    }

    @Test func theLabelAndTheHintAreReadAsWritten() {
        #expect(GroupLabel.fallbackName(in: "Other (no description)") == "Other")
        #expect(GroupLabel.fallbackName(in: " (no description)") == nil)
        #expect(GroupLabel.fallbackName(in: "Other") == nil)
        let groups = [
            PhotoAPI.Group(name: "Beach", count: 1, fallback: false, latest: nil),
            PhotoAPI.Group(name: "beach", count: 1, fallback: false, latest: nil),
            PhotoAPI.Group(name: "other", count: 1, fallback: false, latest: nil),
            PhotoAPI.Group(name: "Other", count: 1, fallback: true, latest: nil),
        ]
        #expect(GroupsText.caseVariants(groups) == [["Beach", "beach"]])
        let many = (0..<7).flatMap { [PhotoAPI.Group(name: "T\($0)", count: 1, fallback: false, latest: nil),
                                      PhotoAPI.Group(name: "t\($0)", count: 1, fallback: false, latest: nil)] }
        let hint = GroupsText.caseHint(GroupsText.caseVariants(many), config: "photod.toml")
        #expect(hint?.contains("\"T4\" and \"t4\"; and 2 more.") == true, "\(hint ?? "")")
        #expect(GroupsText.caseHint([], config: "photod.toml") == nil)
    }

    @Test func aFileTimeIsShownInLocalTime() throws {
        let berlinSummer = try #require(TimeZone(secondsFromGMT: 2 * 3600))
        let latest = GroupsText.Latest(timeZone: berlinSummer)
        let file = PhotoAPI.Group(name: "Scans", count: 1, fallback: false, latest: "2021-06-05T12:03:07Z", latestSource: .modified)
        #expect(latest.text(file) == "2021-06-05 14:03:07 (file)")
        let taken = PhotoAPI.Group(name: "Beach", count: 1, fallback: false, latest: "2021-06-05T14:03:07+02:00",
                                   latestSource: .taken)
        #expect(latest.text(taken) == "2021-06-05 14:03:07+02:00 (taken)", "the camera's clock, as recorded")
        let older = PhotoAPI.Group(name: "Old", count: 1, fallback: false, latest: "2021-06-05T12:03:07Z")
        #expect(latest.text(older) == "2021-06-05T12:03:07Z", "an older photod does not say")
        #expect(latest.text(PhotoAPI.Group(name: "Empty", count: 0, fallback: false, latest: nil)) == "-")
    }
}
