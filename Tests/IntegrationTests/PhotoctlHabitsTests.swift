import Foundation
import PhotoTestSupport
import Testing

/// What people used to fd, git and journalctl expect of photoctl, against the real photod:
/// files wherever ids go, NUL-separated paths, grep's exit status, relative dates, and numbers
/// out of range named as such.
@Suite(.serialized) struct PhotoctlHabitsTests {
    /// A started daemon over three photos: two in "Beach" (one with a newline in its name) and
    /// one in "Hike", modified 2 days, 10 days and 400 days ago.
    private func library() async throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        let now = Date()
        for (name, description, daysAgo) in [("beach/a.jpg", "Beach", 2.0), ("beach/two\nlines.jpg", "Beach", 10.0),
                                             ("hike/c.jpg", "Hike", 400.0)] {
            let path = try daemon.add(name, ThumbnailedPhoto.jpeg(description))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-daysAgo * 86_400)],
                                                  ofItemAtPath: path)
        }
        try await daemon.start()
        return daemon
    }

    private func ids(_ daemon: DaemonHarness) async throws -> [String: String] {
        try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
    }

    @Test func aFileGoesWhereverAnIdDoes() async throws {
        let daemon = try await library()
        let file = daemon.library + "/beach/a.jpg"
        let id = try #require(try await ids(daemon)["beach/a.jpg"])

        let thumbnail = daemon.dir.file("t.jpg")
        let made = try await daemon.photoctl(["thumbnail", "--fast", file, "-o", thumbnail])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try fileBytes(thumbnail) == ThumbnailedPhoto.thumbnail)

        let out = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let exported = try await daemon.photoctl(["export", file, out])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasPrefix(id + " "), "the output names the photo's id: \(exported.stdout)")
        #expect(try fileBytes(out + "/a.jpg") == fileBytes(file))

        let allowed = try await daemon.photoctl(["permissions", "allow", "exe:/usr/bin/gimp", "--asset", file])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let app = try #require(try await daemon.photoctlJSON(["permissions", "show", "exe:/usr/bin/gimp"])["app"] as? [String: Any])
        #expect(app["assets"] as? [String] == [id])

        // A file the library does not hold is named as such, for each command.
        let stranger = daemon.dir.file("stranger.jpg")
        try Data(ThumbnailedPhoto.jpeg()).write(to: URL(fileURLWithPath: stranger))
        for arguments in [["thumbnail", stranger, "-o", daemon.dir.file("u.jpg")], ["export", stranger, out],
                          ["permissions", "allow", "exe:/usr/bin/gimp", "--asset", stranger]] {
            let refused = try await daemon.photoctl(arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stderr.contains("not in the library: \(stranger)"), "\(arguments): \(refused.stderr)")
        }
    }

    @Test func print0WritesEachPathsExactBytesEndedByANul() async throws {
        let daemon = try await library()
        let listed = try await ProcessRunner.run(
            "/bin/sh", ["-c", "\"$0\" list --sort path -0 | od -An -c | tr -s ' \\n' ' '", Binaries.photoctl],
            environment: daemon.environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        // od shows the newline inside the name as \n and each terminator as \0.
        let expected = [daemon.library + "/beach/a.jpg", daemon.library + "/beach/two\nlines.jpg",
                        daemon.library + "/hike/c.jpg"]
            .map { $0.map { $0 == "\n" ? "\\n" : String($0) }.joined(separator: " ") + " \\0" }.joined(separator: " ")
        #expect(listed.stdout.trimmingCharacters(in: .whitespaces) == expected, "\(listed.stdout)")

        let found = try await daemon.photoctl(["find", "beach", "--print0"])
        #expect(found.status == 0)
        #expect(found.stdout.split(separator: "\0").count == 2 && found.stdout.hasSuffix("\0"), "\(found.stdout)")
        for conflicting in [["list", "-0", "--json"], ["list", "-0", "--format", "tsv"], ["find", "x", "-0", "--fields", "id"]] {
            let refused = try await daemon.photoctl(conflicting)
            #expect(refused.status == 2 && refused.stderr.contains("--print0"), "\(conflicting): \(refused.stderr)")
        }
    }

    @Test func findExits1WhenNothingMatchesAsGrepDoes() async throws {
        let daemon = try await library()
        let hit = try await daemon.photoctl(["find", "hike"])
        #expect(hit.status == 0 && hit.stdout.contains("c.jpg"), "\(hit.stderr)")
        let miss = try await daemon.photoctl(["find", "volcano"])
        #expect(miss.status == 1, "\(miss.stderr)")
        #expect(miss.stdout.contains("No photos match \"volcano\"."))
        let json = try await daemon.photoctl(["find", "volcano", "--json"])
        #expect(json.status == 1)
        #expect(try json.json()["assets"] as? [Any] != nil, "the JSON answer is still printed")
    }

    @Test func relativeDatesPickTheSpanPeopleMean() async throws {
        let daemon = try await library()
        func names(_ arguments: [String]) async throws -> [String] {
            let result = try await daemon.photoctl(["list", "--sort", "path", "--format", "tsv", "--fields", "path", "--no-legend"]
                                                   + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "/").last ?? "") }
        }
        await #expect(try names(["--since", "1 week ago"]) == ["a.jpg"])
        await #expect(try names(["--since", "-14d"]) == ["a.jpg", "two\\nlines.jpg"])
        await #expect(try names(["--since", "2 years ago", "--until", "3 days ago"]) == ["two\\nlines.jpg", "c.jpg"])
        await #expect(try names(["--until", "yesterday"]) == ["a.jpg", "two\\nlines.jpg", "c.jpg"])
        await #expect(try names(["--since", "today"]) == [])
        await #expect(try names(["--since", "1 month ago"]) == ["a.jpg", "two\\nlines.jpg"])

        let nonsense = try await daemon.photoctl(["list", "--since", "a fortnight back"])
        #expect(nonsense.status == 2 && nonsense.stderr.contains("2 weeks ago"), "\(nonsense.stderr)")
        let inverted = try await daemon.photoctl(["list", "--since", "2024-05-01", "--until", "2023-01-01"])
        #expect(inverted.status == 2, "\(inverted.stderr)")
        #expect(inverted.stderr.contains("is after --until"), "\(inverted.stderr)")
        let sameDay = try await daemon.photoctl(["list", "--since", "2024-05-01", "--until", "2024-05-01"])
        #expect(sameDay.status == 0, "one day is a range: \(sameDay.stderr)")
    }

    @Test func negativeNumbersAreOutOfRangeNotMissing() async throws {
        let daemon = try DaemonHarness()
        for (arguments, words) in [(["watch", "--since", "-5"], "--since takes a change token, 0 or more, not -5"),
                                   (["list", "--limit", "-1"], "--limit must be 1 or more, not -1"),
                                   (["find", "x", "--limit", "-1"], "--limit must be 1 or more, not -1"),
                                   (["request", "--reason", "r", "--timeout", "-1"], "not -1"),
                                   (["thumbnail", "x", "--size", "-3"], "--size must be 1 to 2048, not -3"),
                                   (["permissions", "reset", "app", "--uid", "-2"], "--uid is a user id")] {
            let result = try await daemon.photoctl(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
    }
}
