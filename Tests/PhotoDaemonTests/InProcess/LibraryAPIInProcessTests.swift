import PhotoAPI
import PhotoClient
import Testing
import Varlink
@testable import PhotoDaemon

/// `LibraryAPI` served in process: real index, real socket, callers named by the test. The
/// owner's tests run against the real binary too (`PhotodTarget`), with the same body.
@Suite struct LibraryAPIInProcessTests {
    @Test(arguments: PhotodTarget.allCases)
    func theOwnerSeesEveryGroupAndAsset(target: PhotodTarget) async throws {
        try await target.run(prepare: { daemon in
            try daemon.add("2021/beach.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("2021/beach2.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("loose.jpg", TestPhoto.jpeg(nil))
        }) { daemon in
            let client = try await daemon.ownerClient()
            let groups = try await client.groups()
            #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.name, $0.count) }) == ["Beach": 2, "Other": 1])
            let status = try await client.status()
            #expect(status.state == .ready)
            #expect(status.assets == 3)
            let beach = try await client.allAssets(group: "Beach")
            #expect(Set(beach.map(\.path)) == [daemon.library + "/2021/beach.jpg", daemon.library + "/2021/beach2.jpg"])
            let reply = try await client.getAssets(ids: beach.map(\.id) + ["0000000000000000"])
            #expect(reply.assets.map(\.id).sorted() == beach.map(\.id).sorted())
            #expect(reply.missing == ["0000000000000000"])
            await client.close()
        }
    }

    @Test func anAppIsRefusedTheOwnerOnlyRescanAndTheLibraryUntilAllowed() async throws {
        try await TestDaemon.withDaemon(prepare: { try $0.add("a.jpg", TestPhoto.jpeg("Beach")) }) { daemon in
            let app = try await daemon.client(as: TestDaemon.app("exe:/usr/bin/viewer"))
            do {
                _ = try await app.rescan()
                Issue.record("an app ran the owner-only Rescan")
            } catch PhotoClientError.daemon(let error) {
                #expect(error.name == LibraryInterface.Error.ownerOnly)
            }
            do {
                _ = try await app.groups()
                Issue.record("an app never allowed listed the groups")
            } catch PhotoClientError.daemon(let error) {
                #expect(error.name == LibraryInterface.Error.authorizationRequired)
            }
            await app.close()
        }
    }

    @Test func anAllowedAppSeesTheLibraryAndALimitedOneOnlyItsSelection() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("a.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("b.jpg", TestPhoto.jpeg("Hike"))
        }) { daemon in
            let owner = try await daemon.client()
            let viewer = "exe:/usr/bin/viewer"
            _ = try await owner.decide(app: viewer, status: .authorized)
            let app = try await daemon.client(as: TestDaemon.app(viewer))
            #expect(Set(try await app.groups().map(\.name)) == ["Beach", "Hike"])
            _ = try await owner.decide(app: viewer, status: .limited, groups: ["Hike"])
            let limited = try await daemon.client(as: TestDaemon.app(viewer))
            #expect(try await limited.groups().map(\.name) == ["Hike"])
            #expect(try await limited.status().assets == 1)
            for client in [owner, app, limited] { await client.close() }
        }
    }

    @Test(arguments: PhotodTarget.allCases)
    func aPhotoWrittenWhileRunningIsIndexedAndSubscribersHearOfIt(target: PhotodTarget) async throws {
        try await target.run { daemon in
            let client = try await daemon.ownerClient()
            let subscriber = try await daemon.ownerClient()
            let changes = subscriber.subscribe(since: try await client.status().token)
            try daemon.add("new/sunset.jpg", TestPhoto.jpeg("Sunset"))
            var iterator = changes.makeAsyncIterator()
            var inserted: [String] = []
            while inserted.isEmpty, let change = try await iterator.next() {
                inserted += change.inserted
            }
            let assets = try await client.getAssets(ids: inserted).assets
            #expect(assets.map(\.group) == ["Sunset"])
            #expect(assets.map(\.path) == [daemon.library + "/new/sunset.jpg"])
            await client.close()
            await subscriber.close()
        }
    }
}
