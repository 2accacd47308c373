import Foundation
import Logging
import PhotoAPI
import PhotoTestSupport
import Store
import Testing
import Varlink
@testable import PhotoDaemon

/// What each kind of caller is admitted to, by the gate over a real authorizer and index.
@Suite struct AccessGateTests {
    /// A gate over an authorizer on a fresh index, holding `rules`.
    final class Rig: Sendable {
        let dir: TemporaryDirectory
        let store: Store
        let authorizer: Authorizer
        let gate: AccessGate

        /// A rig whose authorizer holds `policy` and whose gate holds `rules`.
        init(rules: GroupingRules, policy: AuthorizationPolicy) async throws {
            dir = try TemporaryDirectory()
            store = try Store(path: dir.file("state/index.sqlite"))
            authorizer = try await Authorizer(store: store, policy: policy, logger: LogRecorder().logger()) { _, _ in }
            gate = AccessGate(authorizer: authorizer, rules: rules)
        }

        /// Runs `body` with a new rig and closes its index afterwards, also when `body` throws.
        static func with(rules: GroupingRules = GroupingRules(), policy: AuthorizationPolicy = AuthorizationPolicy(),
                         _ body: (Rig) async throws -> Void) async throws {
            let rig = try await Rig(rules: rules, policy: policy)
            try await withClosing(rig, close: { await $0.store.close() }, body)
        }

        /// The refusal the gate gives `caller`, decoded; records an issue and returns nil when it admits it.
        func refusal(for caller: Caller, sourceLocation: SourceLocation = #_sourceLocation) async
            -> AuthorizationRequiredError? {
            let error = await #expect(throws: VarlinkError.self, sourceLocation: sourceLocation) {
                _ = try await self.gate.access(for: caller)
            }
            guard let error else { return nil }
            #expect(error.name == LibraryInterface.Error.authorizationRequired, sourceLocation: sourceLocation)
            let parameters = error.parameters(AuthorizationRequiredError.self)
            #expect(parameters != nil, "the refusal carries its parameters", sourceLocation: sourceLocation)
            return parameters
        }
    }

    /// An app of `uid` (the test's own user unless named).
    static func identity(_ name: String, uid: UInt32 = getuid()) -> AppIdentity {
        AppIdentity(id: "exe:/usr/bin/\(name)", uid: uid, source: .executable, executable: "/usr/bin/\(name)")
    }

    @Test func theOwnerSeesEverythingWithoutAnyRecord() async throws {
        try await Rig.with { rig async throws in
            let owner = Caller.owner(Self.identity("photoctl"))
            #expect(try await rig.gate.access(for: owner) == .everything)
            #expect(await rig.authorizer.allRecords().isEmpty)
        }
    }

    @Test func anAuthorizedAppSeesEverything() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            #expect(try await rig.gate.access(for: .app(viewer)) == .everything)
        }
    }

    @Test func aLimitedAppSeesItsSelectionUnderTheIndexsGroupKeys() async throws {
        try await Rig.with(rules: GroupingRules(caseInsensitive: true)) { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: ["b2", "a1"],
                                                groups: ["Beach", "  Sea   View "])
            let access = try await rig.gate.access(for: .app(viewer))
            #expect(access == .selection(StoreSelection(groupKeys: ["beach", "sea view"], ids: ["a1", "b2"])))
        }
        try await Rig.with(rules: GroupingRules(caseInsensitive: false)) { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: [], groups: ["Sea  View", "Beach"])
            let access = try await rig.gate.access(for: .app(viewer))
            #expect(access == .selection(StoreSelection(groupKeys: ["Beach", "Sea View"], ids: [])))
        }
    }

    /// A name is the group of that description; the fallback group is selected by its flag.
    @Test func aLimitedAppSeesTheFallbackGroupOnlyByItsFlag() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: [], groups: ["Other"])
            #expect(try await rig.gate.access(for: .app(viewer)) == .selection(StoreSelection(groupKeys: ["Other"], ids: [])))
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: [], groups: [], fallback: true)
            #expect(try await rig.gate.access(for: .app(viewer))
                == .selection(StoreSelection(groupKeys: [GroupingRules().fallbackKey], ids: [])))
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: [], groups: ["Other"], fallback: true)
            #expect(try await rig.gate.access(for: .app(viewer))
                == .selection(StoreSelection(groupKeys: [GroupingRules().fallbackKey, "Other"], ids: [])))
        }
    }

    @Test func aDeniedAppIsRefusedAndToldHowTheOwnerLetsItAskAgain() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .denied, assets: [], groups: [])
            let refusal = await rig.refusal(for: .app(viewer))
            #expect(refusal?.status == "denied")
            #expect(refusal?.app == viewer.id)
            #expect(refusal?.hint.contains("photoctl permissions reset \(viewer.id)") == true)
        }
    }

    @Test func anUndecidedAppIsRefusedAndToldToAsk() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.identity("viewer")
            let never = await rig.refusal(for: .app(viewer))
            #expect(never?.status == "notDetermined")
            #expect(never?.app == viewer.id)
            #expect(never?.hint.hasPrefix("ask with io.photod.Authorization.RequestAuthorization") == true)
            #expect(await rig.authorizer.allRecords().isEmpty, "being refused takes no record")

            _ = try await rig.authorizer.request(viewer, reason: "to show photos", label: nil)
            let waiting = await rig.refusal(for: .app(viewer))
            #expect(waiting?.status == "notDetermined")
            #expect(waiting?.hint.hasPrefix("a request is waiting for the owner; ") == true)
        }
    }

    @Test func aRestrictedAppIsToldOnlyTheConfigLiftsIt() async throws {
        try await Rig.with(policy: AuthorizationPolicy(restricted: ["exe:/usr/bin/vie*"])) { rig async throws in
            let viewer = Self.identity("viewer")
            let refusal = await rig.refusal(for: .app(viewer))
            #expect(refusal?.status == "restricted")
            #expect(refusal?.hint.contains("[permissions] restricted") == true)
            #expect(await rig.refusal(for: .app(Self.identity("other")))?.status == "notDetermined",
                    "the pattern restricts only the ids it matches")
            _ = try await rig.authorizer.decide("exe:/usr/bin/other", status: .authorized, assets: [], groups: [])
            #expect(try await rig.gate.access(for: .app(Self.identity("other"))) == .everything)
        }
    }

    @Test func aCallerPhotodCouldNotIdentifyIsRefusedWithTheReason() async throws {
        try await Rig.with { rig async throws in
            let refusal = await rig.refusal(for: .unidentified(reason: "its process was gone"))
            #expect(refusal?.status == "notDetermined")
            #expect(refusal?.app == "unidentified")
            #expect(refusal?.hint.contains("its process was gone") == true)
        }
    }

    @Test func oneUsersGrantDoesNotAdmitTheSameProgramOfAnotherUser() async throws {
        try await Rig.with { rig async throws in
            let mine = Self.identity("viewer")
            let theirs = Self.identity("viewer", uid: getuid() &+ 1)
            _ = try await rig.authorizer.decide(mine.id, status: .authorized, assets: [], groups: [])
            #expect(try await rig.gate.access(for: .app(mine)) == .everything)
            #expect(await rig.refusal(for: .app(theirs))?.status == "notDetermined")
        }
    }

    @Test func theOwnersResetOrRemoveClosesTheGateAtOnce() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.identity("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: ["a1"], groups: [])
            #expect(try await rig.gate.access(for: .app(viewer)) == .selection(StoreSelection(groupKeys: [], ids: ["a1"])))
            _ = try await rig.authorizer.reset("viewer")
            #expect(await rig.refusal(for: .app(viewer))?.status == "notDetermined")
            _ = try await rig.authorizer.decide("viewer", status: .authorized, assets: [], groups: [])
            #expect(try await rig.gate.access(for: .app(viewer)) == .everything)
            _ = try await rig.authorizer.remove("viewer")
            #expect(await rig.refusal(for: .app(viewer))?.status == "notDetermined")
        }
    }

    @Test func ownerOnlyNamesTheInterfaceOfTheMethod() {
        let library = AccessGate.ownerOnly("Rescan", interface: LibraryInterface.name)
        let authorization = AccessGate.ownerOnly("Decide", interface: AuthorizationInterface.name)
        #expect(library.name == LibraryInterface.Error.ownerOnly)
        #expect(authorization.name == AuthorizationInterface.Error.ownerOnly)
        #expect(library.parameters(OwnerOnlyError.self)?.hint.hasPrefix("Rescan is for the library's owner") == true)
        #expect(authorization.parameters(OwnerOnlyError.self)?.hint.hasPrefix("Decide is for") == true)
    }
}
