import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import Varlink
@testable import PhotoDaemon

/// Groups as people expect them (issue 15), served in process: the fallback group apart from a
/// description that reads "Other", named unambiguously on the wire; LATEST that says what it
/// is; suggestions for a group that is not there, never of one the caller may not see.
@Suite struct FallbackGroupInProcessTests {
    /// Two photos described "Other", one without a description, one of the beach.
    private static func twoOthers(_ daemon: TestDaemon) throws {
        try daemon.add("described-1.jpg", TestPhoto.jpeg("Other"))
        try daemon.add("described-2.jpg", TestPhoto.jpeg("Other"))
        try daemon.add("undescribed.jpg", TestPhoto.jpeg(nil))
        try daemon.add("beach.jpg", TestPhoto.jpeg("Beach"))
    }

    /// The file names of a listing, sorted.
    private static func names(_ assets: [Asset]) -> [String] {
        assets.map { String($0.path.split(separator: "/").last ?? "") }.sorted()
    }

    /// The `GroupNotFound` a call fails with; records an issue when it fails otherwise or not at all.
    private static func groupNotFound(sourceLocation: SourceLocation = #_sourceLocation,
                                      _ call: () async throws -> Void) async -> GroupNotFoundError? {
        do {
            try await call()
            Issue.record("the call succeeded", sourceLocation: sourceLocation)
        } catch PhotoClientError.daemon(let error) where error.name == LibraryInterface.Error.groupNotFound {
            return error.parameters(GroupNotFoundError.self)
        } catch {
            Issue.record("failed otherwise: \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func aPhotoDescribedOtherIsAGroupApartFromTheFallback() async throws {
        try await TestDaemon.withDaemon(prepare: Self.twoOthers) { daemon in
            let client = try await daemon.client()
            let groups = try await client.groups()
            #expect(groups.map { "\($0.name):\($0.count):\($0.fallback)" } == ["Beach:1:false", "Other:2:false", "Other:1:true"])

            // Older clients name a group only: the group of that description wins.
            #expect(Self.names(try await client.allAssets(group: "Other")) == ["described-1.jpg", "described-2.jpg"])
            #expect(Self.names(try await client.allAssets(group: "Other", fallback: false))
                == ["described-1.jpg", "described-2.jpg"])
            let fallback = try await client.allAssets(group: "Other", fallback: true)
            #expect(Self.names(fallback) == ["undescribed.jpg"])
            #expect(Self.names(try await client.allAssets(group: nil, fallback: true)) == ["undescribed.jpg"])
            #expect(fallback.map(\.fallback) == [true])
            #expect(Set(try await client.allAssets(group: "Other").map(\.fallback)) == [false])
            #expect(try await client.allAssets(group: nil).count == 4)
            let wrongName = await Self.groupNotFound { _ = try await client.allAssets(group: "Beach", fallback: true) }
            #expect(wrongName?.name == "Beach")
            await client.close()
        }
    }

    @Test func anOlderClientsNameOfTheFallbackStillFindsItWhileNoPhotoIsDescribedSo() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("undescribed.jpg", TestPhoto.jpeg(nil))
            try daemon.add("camera.jpg", TestPhoto.jpeg("SONY DSC"))
        }) { daemon in
            let client = try await daemon.client()
            #expect(Self.names(try await client.allAssets(group: "Other")) == ["camera.jpg", "undescribed.jpg"])
            let strict = await Self.groupNotFound { _ = try await client.allAssets(group: "Other", fallback: false) }
            #expect(strict?.name == "Other")
            let none = await Self.groupNotFound { _ = try await client.allAssets(group: "   ") }
            #expect(none?.name == "   ", "a blank name is no group, not the fallback's empty key")
            await client.close()
        }
    }

    @Test func latestSaysWhetherItIsACaptureOrAFileTime() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("beach.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("scan.jpg", JPEGFixture.make(exif: ExifFixture(description: "Scans")))
        }) { daemon in
            let owner = try await daemon.client()
            let groups = Dictionary(uniqueKeysWithValues: try await owner.groups().map { ($0.name, $0) })
            #expect(groups["Beach"]?.latest == "2021-07-04T10:30:00")
            #expect(groups["Beach"]?.latestSource == .taken)
            #expect(groups["Scans"]?.latestSource == .modified)
            #expect(groups["Scans"]?.latest?.hasSuffix("Z") == true, "a file time, in UTC")

            // A limited app's counts are its own, and so is what its LATEST is.
            _ = try await owner.decide(app: "exe:/usr/bin/viewer", status: .limited, groups: ["Scans"])
            let app = try await daemon.client(as: TestDaemon.app("exe:/usr/bin/viewer"))
            #expect(try await app.groups().map(\.latestSource) == [.modified])
            await owner.close()
            await app.close()
        }
    }

    @Test func aGroupThatIsNotThereComesWithTheNearestNames() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("beach.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("bench.jpg", TestPhoto.jpeg("Bench"))
            try daemon.add("secret.jpg", TestPhoto.jpeg("Secret Beach"))
        }) { daemon in
            let owner = try await daemon.client()
            let typo = await Self.groupNotFound { _ = try await owner.allAssets(group: "Beahc") }
            #expect(typo == GroupNotFoundError(name: "Beahc", closest: ["Beach"]))
            let contained = await Self.groupNotFound { _ = try await owner.allAssets(group: "beach") }
            #expect(contained?.closest == ["Beach", "Bench", "Secret Beach"], "same but for case, then one letter or a part")
            let far = await Self.groupNotFound { _ = try await owner.allAssets(group: "Zebra crossing") }
            #expect(far?.closest == [])
            let padded = "Beach" + String(repeating: "x", count: LibraryAPI.suggestedNameBytes - 5)
            let long = await Self.groupNotFound { _ = try await owner.allAssets(group: padded) }
            #expect(long?.closest == ["Beach"], "a name that holds another is near it")
            let tooLong = await Self.groupNotFound { _ = try await owner.allAssets(group: padded + "x") }
            #expect(tooLong?.closest == [], "past the cap nothing is searched")
            let noFallback = await Self.groupNotFound { _ = try await owner.allAssets(group: nil, fallback: true) }
            #expect(noFallback?.name == "Other", "no photo lacks a description")
            await owner.close()
        }
    }

    /// A limited app is offered only names of its own selection: a hidden group is never
    /// suggested, not even for its exact name, which answers exactly like a name never used.
    @Test func aLimitedAppIsNeverOfferedAGroupOutsideItsSelection() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("beach.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("secret.jpg", TestPhoto.jpeg("Secret"))
            try daemon.add("secret-beach.jpg", TestPhoto.jpeg("Secret Beach"))
        }) { daemon in
            let owner = try await daemon.client()
            let viewer = "exe:/usr/bin/viewer"
            _ = try await owner.decide(app: viewer, status: .limited, groups: ["Beach"])
            let app = try await daemon.client(as: TestDaemon.app(viewer))
            let near = await Self.groupNotFound { _ = try await app.allAssets(group: "Beahc") }
            #expect(near?.closest == ["Beach"], "Secret Beach is near too, but hidden")
            let hidden = await Self.groupNotFound { _ = try await app.allAssets(group: "Secret") }
            let neverUsed = await Self.groupNotFound { _ = try await app.allAssets(group: "Secrte") }
            #expect(hidden == GroupNotFoundError(name: "Secret", closest: []))
            #expect(neverUsed == GroupNotFoundError(name: "Secrte", closest: []))
            let typoOfHidden = await Self.groupNotFound { _ = try await app.allAssets(group: "Secret Beahc") }
            #expect(typoOfHidden?.closest?.contains("Secret Beach") == false)
            // The owner, asking the same, is told.
            let ownerAsks = await Self.groupNotFound { _ = try await owner.allAssets(group: "Secrte") }
            #expect(ownerAsks?.closest == ["Secret"])
            await owner.close()
            await app.close()
        }
    }

    @Test func theOwnerSelectsEitherGroupAndAnOlderClientsNameMeansWhatItMeantThen() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("undescribed.jpg", TestPhoto.jpeg(nil))
            try daemon.add("beach.jpg", TestPhoto.jpeg("Beach"))
        }) { daemon in
            let owner = try await daemon.client()
            let viewer = "exe:/usr/bin/viewer"
            // No photo is described "Other": the name is the fallback group's, and kept as the flag.
            let byName = try await owner.decide(app: viewer, status: .limited, groups: ["Other"])
            #expect(byName.groups == [] && byName.fallback == true)
            try daemon.add("described.jpg", TestPhoto.jpeg("Other"))
            #expect(try await eventually { try await owner.status().assets == 3 })
            let app = try await daemon.client(as: TestDaemon.app(viewer))
            #expect(Self.names(try await app.allAssets(group: nil)) == ["undescribed.jpg"],
                    "a photo described Other later does not join a selection of the fallback group")

            // Now the name is the group of that description; the flag the fallback group.
            let literal = try await owner.decide(app: viewer, status: .limited, groups: ["Other"])
            #expect(literal.groups == ["Other"] && literal.fallback == false)
            let literalApp = try await daemon.client(as: TestDaemon.app(viewer))
            #expect(Self.names(try await literalApp.allAssets(group: nil)) == ["described.jpg"])
            #expect(try await literalApp.groups().map(\.fallback) == [false])
            _ = try await owner.decide(app: viewer, status: .limited, groups: ["Other"], fallback: true)
            let both = try await daemon.client(as: TestDaemon.app(viewer))
            #expect(Self.names(try await both.allAssets(group: nil)) == ["described.jpg", "undescribed.jpg"])
            #expect(Self.names(try await both.allAssets(group: "Other", fallback: true)) == ["undescribed.jpg"])
            for client in [owner, app, literalApp, both] { await client.close() }
        }
    }

    @Test func aSelectionOfTheFallbackGroupNeedsOne() async throws {
        try await TestDaemon.withDaemon(prepare: { try $0.add("beach.jpg", TestPhoto.jpeg("Beach")) }) { daemon in
            let owner = try await daemon.client()
            do {
                _ = try await owner.decide(app: "exe:/usr/bin/viewer", status: .limited, fallback: true)
                Issue.record("a selection of a fallback group the library does not have was kept")
            } catch PhotoClientError.daemon(let error) {
                #expect(error.name == AuthorizationInterface.Error.noSuchGroup)
                #expect(error.parameters(NoSuchGroupError.self)?.group == "Other")
            }
            await owner.close()
        }
    }

    @Test func subscribersAreToldWhichChangedGroupIsTheFallback() async throws {
        try await TestDaemon.withDaemon(prepare: { try $0.add("seed.jpg", TestPhoto.jpeg("Other")) }) { daemon in
            let owner = try await daemon.client()
            let viewer = "exe:/usr/bin/viewer"
            _ = try await owner.decide(app: viewer, status: .limited, groups: ["Other"], fallback: false)
            let token = try await owner.status().token
            // Recorded with a deadline: a change that never comes fails the test instead of
            // leaving it waiting forever (it once hung a whole CI run).
            let ownerChanges = try await ChangeRecorder.start(client: daemon.client(), since: token)
            let appChanges = try await ChangeRecorder.start(client: daemon.client(as: TestDaemon.app(viewer)), since: token)
            defer { ownerChanges.stop(); appChanges.stop() }
            try daemon.add("undescribed.jpg", TestPhoto.jpeg(nil))
            try daemon.add("described.jpg", TestPhoto.jpeg("Other"))
            #expect(try await ownerChanges.wait { Set($0.inserted).count >= 2 }, "\(ownerChanges.received)")
            let seen = ownerChanges.received.filter { !$0.inserted.isEmpty }
            #expect(Set(seen.flatMap(\.inserted)).count == 2, "\(seen)")
            let flagged = seen.filter { $0.fallbackChanged == true }
            #expect(flagged.count == 1, "\(seen)")
            #expect(flagged.first?.groupsChanged.first == "Other")
            #expect(seen.allSatisfy { $0.fallbackRemoved == nil })
            // The app sees only the photos described Other: never the fallback group changing.
            #expect(try await appChanges.wait { !$0.inserted.isEmpty }, "\(appChanges.received)")
            let appInserts = appChanges.received.filter { !$0.inserted.isEmpty }
            #expect(appInserts.first?.fallbackChanged == nil)
            #expect(appInserts.first?.groupsChanged == ["Other"])
            await owner.close()
        }
    }
}
