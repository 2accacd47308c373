import PhotoAPI
import PhotoClient
import Testing
import Varlink
@testable import PhotoDaemon

/// What `Decide` checks before keeping a decision, and `GetApp`, served in process.
@Suite struct DecisionChecksInProcessTests {
    /// The daemon's error for a call expected to fail.
    private static func refusal(_ call: () async throws -> Void) async -> VarlinkError? {
        do {
            try await call()
        } catch PhotoClientError.daemon(let error) {
            return error
        } catch {
            Issue.record("failed otherwise: \(error)")
        }
        return nil
    }

    @Test func aGroupOrAssetTheLibraryDoesNotHaveIsRefusedWithTheClosestOnes() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("a.jpg", TestPhoto.jpeg("Beach"))
            try daemon.add("b.jpg", TestPhoto.jpeg("Hike"))
        }) { daemon in
            let owner = try await daemon.client()
            let viewer = "exe:/usr/bin/viewer"
            let group = await Self.refusal { _ = try await owner.decide(app: viewer, status: .limited, groups: ["Hike", "beahc"]) }
            #expect(group?.name == AuthorizationInterface.Error.noSuchGroup)
            #expect(group?.parameters(NoSuchGroupError.self) == NoSuchGroupError(group: "beahc", closest: ["Beach"]))

            let beach = try #require(try await owner.allAssets(group: "Beach").first?.id)
            // The same id but for its last character: the real one shares the longest prefix.
            let typo = String(beach.dropLast()) + (beach.last == "0" ? "1" : "0")
            let asset = await Self.refusal { _ = try await owner.decide(app: viewer, status: .limited, assets: [beach, typo]) }
            #expect(asset?.name == AuthorizationInterface.Error.noSuchAsset)
            #expect(asset?.parameters(NoSuchAssetError.self) == NoSuchAssetError(asset: typo, closest: [beach]))

            // Refused whole: no record was made for the app, and nothing was decided.
            #expect(try await owner.listApps().isEmpty)
            let decided = try await owner.decide(app: viewer, status: .limited, assets: [beach], groups: ["Hike"])
            #expect(decided.status == .limited && decided.groups == ["Hike"])
            await owner.close()
        }
    }

    @Test func allowingAShellNeedsConfirmationDenyingDoesNot() async throws {
        try await TestDaemon.withDaemon { daemon in
            let owner = try await daemon.client()
            let refused = await Self.refusal { _ = try await owner.decide(app: "exe:/usr/bin/bash", status: .authorized) }
            #expect(refused?.name == AuthorizationInterface.Error.confirmationRequired)
            let details = try #require(refused?.parameters(ConfirmationRequiredError.self))
            #expect(details.app == "exe:/usr/bin/bash" && details.warning.contains("every command"))
            #expect(try await owner.listApps().isEmpty)

            let denied = try await owner.decide(app: "exe:/usr/bin/python3", status: .denied)
            #expect(denied.status == .denied && denied.warning?.contains("python3") == true)
            let allowed = try await owner.decide(app: "exe:/usr/bin/bash", status: .authorized, confirmed: true)
            #expect(allowed.status == .authorized)
            #expect(allowed.decidedBy == "exe:/usr/bin/photoctl")
            #expect(try await owner.app("bash") == allowed)
            await owner.close()
        }
    }

    @Test func getAppNamesAnAppLikeDecideAndOnlyForTheOwner() async throws {
        try await TestDaemon.withDaemon { daemon in
            let owner = try await daemon.client()
            _ = try await owner.decide(app: "exe:/usr/bin/viewer", status: .denied)
            let shown = try await owner.app("viewer")
            #expect(shown.id == "exe:/usr/bin/viewer" && shown.status == .denied && shown.warning == nil)
            #expect(shown.decidedAt != nil && shown.decidedBy == "exe:/usr/bin/photoctl")
            let unknown = await Self.refusal { _ = try await owner.app("nothing-like-it") }
            #expect(unknown?.name == AuthorizationInterface.Error.unknownApp)
            let app = try await daemon.client(as: TestDaemon.app("exe:/usr/bin/viewer"))
            let refused = await Self.refusal { _ = try await app.app("viewer") }
            #expect(refused?.name == AuthorizationInterface.Error.ownerOnly)
            for client in [owner, app] { await client.close() }
        }
    }
}
