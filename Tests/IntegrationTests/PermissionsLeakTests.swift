import Foundation
import PhotoTestSupport
import Testing

/// A limited app learns nothing about hidden assets through any method, parameter or error.
@Suite(.serialized) struct PermissionsLeakTests {
    @Test func aLimitedAppLearnsNothingAboutHiddenAssets() async throws {
        // owner.py is a trusted program (the owner's own tool); viewer.py is the limited app.
        let daemon = try DaemonHarness(trusted: ["script:*/owner.py"])
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach", taken: "2020:01:01 10:00:00"))
        try daemon.add("beach/2.jpg", Photo.jpeg("Beach", taken: "2022:01:01 10:00:00"))
        try daemon.add("hike/3.jpg", Photo.jpeg("Hike", taken: "2021:01:01 10:00:00"))
        try daemon.add("hike/4.jpg", Photo.jpeg("Hike", taken: "2023:01:01 10:00:00"))
        try daemon.add("secret/5.jpg", Photo.jpeg("Secret", taken: "2019:01:01 10:00:00"))
        try await daemon.start()
        let owner = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "owner.py")
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "viewer.py")
        let ids = try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)
        let hike3 = try #require(ids["hike/3.jpg"])
        let visible: Set<String> = [try #require(ids["beach/1.jpg"]), try #require(ids["beach/2.jpg"]), hike3]
        let appID = try await #require((try app.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID, "--group", "Beach", "--asset", hike3])

        // Groups and counts: Hike shows only the one selected photo; Secret does not exist.
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Beach", "Hike"])
        #expect(groups.map { $0["count"] as? Int } == [2, 1])
        let status = try await app.call("io.photod.Library.Status")
        #expect(status["assets"] as? Int == 3)
        #expect(status["groups"] as? Int == 2)
        #expect(status["watches"] as? Int == 0)
        #expect(status["progress"] == nil || status["progress"] is NSNull)

        // Guessing ids: every real id and a made-up one; only the visible come back, the
        // rest are missing in the order asked, hidden and nonexistent alike.
        let guesses = ids.values.sorted() + ["zzzzzzzzzzzzzzzz"]
        let list = guesses.map { "\"\($0)\"" }.joined(separator: ", ")
        let fetched = try await app.call("io.photod.Library.GetAssets", "{\"ids\": [\(list)]}")
        #expect(Set((fetched["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == visible)
        #expect(fetched["missing"] as? [String] == guesses.filter { !visible.contains($0) })

        // Group names: a hidden group answers exactly like one that does not exist.
        let hidden = try await app.call("io.photod.Library.ListAssets", #"{"group": "Secret"}"#)
        let none = try await app.call("io.photod.Library.ListAssets", #"{"group": "Secrets"}"#)
        #expect(hidden["error"] as? String == "io.photod.Library.GroupNotFound")
        #expect(hidden["error"] as? String == none["error"] as? String)
        #expect(Set((hidden["parameters"] as? [String: Any] ?? [:]).keys) == ["name", "closest"])
        // Suggestions come from what the app sees: none names the hidden group, for either name.
        #expect((hidden["parameters"] as? [String: Any])?["closest"] as? [String] == [])
        #expect((none["parameters"] as? [String: Any])?["closest"] as? [String] == [])
        let hike = try await app.call("io.photod.Library.ListAssets", #"{"group": "Hike"}"#)
        #expect((hike["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [hike3])

        // Forged cursors: every cursor the owner gets while paging one by one, in every order,
        // yields only visible assets for the app.
        for sort in ["taken", "path", "modified"] {
            var cursor: String?
            repeat {
                let parameters = cursor.map { #"{"sort": "\#(sort)", "limit": 1, "cursor": "\#($0)"}"# }
                    ?? #"{"sort": "\#(sort)", "limit": 1}"#
                let page = try await owner.call("io.photod.Library.ListAssets", parameters)
                cursor = page["cursor"] as? String
                guard let cursor else { break }
                let seen = try await app.call("io.photod.Library.ListAssets", #"{"sort": "\#(sort)", "cursor": "\#(cursor)"}"#)
                let seenIDs = Set((seen["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                #expect(seen["error"] == nil, "\(seen)")
                #expect(seenIDs.isSubset(of: visible), "sort \(sort): \(seenIDs.subtracting(visible)) leaked")
            } while cursor != nil
        }
        let secretPage = try await owner.call("io.photod.Library.ListAssets", #"{"group": "Secret", "limit": 1}"#)
        #expect(secretPage["assets"] != nil)
        for forged in ["AAAA", "not a cursor"] {
            await #expect(try app.error(of: "io.photod.Library.ListAssets", #"{"cursor": "\#(forged)"}"#) == "io.photod.Library.InvalidCursor")
        }

        // Changes: hidden activity is never delivered, nor does it show as a group changing.
        let subscription = try app.stream(["subscribe"], name: "subscribe")
        await #expect(subscription.wait { $0.objects.count >= 1 }, "\(subscription.stderr)")
        try daemon.add("secret/6.jpg", Photo.jpeg("Secret"))
        try daemon.add("hike/7.jpg", Photo.jpeg("Hike"))
        try FileManager.default.removeItem(atPath: daemon.library + "/hike/4.jpg")
        try daemon.add("beach/8.jpg", Photo.jpeg("Beach"))
        await #expect(subscription.wait { $0.objects.count >= 2 }, "\(subscription.stderr)")
        // A barrier: one more visible photo. photod handles file events in order, so once its
        // insertion is delivered, whatever the changes above would have leaked has arrived too.
        try daemon.add("beach/9.jpg", Photo.jpeg("Beach"))
        var beach9: String?
        await #expect(eventually(within: 10) {
            beach9 = try? await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)["beach/9.jpg"]
            return beach9.map { id in subscription.objects.contains { ($0["inserted"] as? [String] ?? []).contains(id) } } ?? false
        }, "\(subscription.lines)")
        let beach8 = try #require(try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)["beach/8.jpg"])
        let changes = subscription.objects.dropFirst()
        #expect(changes.flatMap { $0["inserted"] as? [String] ?? [] } == [beach8, try #require(beach9)])
        #expect(changes.allSatisfy { ($0["removed"] as? [String] ?? []).isEmpty })
        #expect(Set(changes.flatMap { $0["groupsChanged"] as? [String] ?? [] }) == ["Beach"])
        await subscription.kill()
    }
}
