import Foundation
import Logging
import PhotoAPI
import PhotoTestSupport
import Store
import Synchronization
import Testing
import Varlink
@testable import PhotoDaemon

/// What apps can make photod keep is bounded, the owner can delete it, and one user's grants
/// never reach another's (issue 11, items 3 and 15).
@Suite struct AuthorizerLimitsTests {
    /// An authorizer over a fresh index, keeping at most `maximumApps` records.
    final class Fixture: Sendable {
        let dir: TemporaryDirectory
        let store: Store
        let authorizer: Authorizer
        let log = LogRecorder()
        let visibility = VisibilityLog()

        init(maximumApps: Int = AuthorizationLimits.maximumApps) async throws {
            dir = try TemporaryDirectory()
            store = try Store(path: dir.file("index.sqlite"))
            let logger = log.logger(level: .trace)
            let visibility = self.visibility
            authorizer = try await Authorizer(store: store, policy: AuthorizationPolicy(), logger: logger,
                                        maximumApps: maximumApps) { app, seen in
                visibility.entries.withLock { $0.append((app, seen)) }
            }
        }
    }

    /// What the authorizer told subscriptions: (`AppKey.text`, visibility).
    final class VisibilityLog: Sendable {
        let entries = Mutex<[(String, Visibility)]>([])
        var all: [(String, Visibility)] { entries.withLock { $0 } }
    }

    static func app(_ name: String, uid: UInt32 = 1000) -> AppIdentity {
        AppIdentity(id: "exe:/usr/bin/\(name)", uid: uid, source: .executable, executable: "/usr/bin/\(name)")
    }

    @Test func aReasonOfManyBytesInFewCharactersIsRefused() async throws {
        // 334 characters, 1,002 bytes: the old character count let it through.
        let accented = String(repeating: "e\u{301}", count: 334)
        #expect(accented.count == 334)
        #expect(throws: VarlinkError.invalidParameter("reason")) {
            try ParameterLimits.check(RequestAuthorizationParameters(reason: accented))
        }
        // One "character" of 600 KB (a letter with combining marks), the reproduced attack.
        let tower = "a" + String(repeating: "\u{301}", count: 300_000)
        #expect(tower.count == 1)
        #expect(throws: VarlinkError.invalidParameter("reason")) {
            try ParameterLimits.check(RequestAuthorizationParameters(reason: tower))
        }
        try ParameterLimits.check(RequestAuthorizationParameters(reason: String(repeating: "é", count: 500)))
    }

    @Test func anAppThatOnlyLooksCostsNoRecord() async throws {
        let fixture = try await Fixture()
        #expect(await fixture.authorizer.record(for: Self.app("eog")).status == .notDetermined)
        #expect(await fixture.authorizer.allRecords().isEmpty)
        await #expect(try fixture.store.read { try $0.apps() }.isEmpty)
    }

    @Test func aNewAppBeyondTheCapIsRefusedAndTheOwnerToldOnce() async throws {
        let fixture = try await Fixture(maximumApps: 2)
        _ = try await fixture.authorizer.request(Self.app("one"), reason: "r", label: nil)
        _ = try await fixture.authorizer.request(Self.app("two"), reason: "r", label: nil)
        for _ in 0..<3 {
            await #expect(throws: AuthorizationCallError.tooManyApps(limit: 2)) {
                _ = try await fixture.authorizer.request(Self.app("three"), reason: "r", label: nil)
            }
        }
        // A known app may still ask again, and the owner cannot pre-decide a new one either.
        _ = try await fixture.authorizer.request(Self.app("one"), reason: "again", label: nil)
        await #expect(throws: AuthorizationCallError.tooManyApps(limit: 2)) {
            _ = try await fixture.authorizer.decide("exe:/usr/bin/four", status: .denied, assets: [], groups: [])
        }
        #expect(await fixture.authorizer.allRecords().count == 2)
        #expect(fixture.log.all.filter { $0.contains("turning new apps away") }.count == 1)

        // Removing one frees its slot.
        let removed = try await fixture.authorizer.remove("one")
        #expect(removed.app == "exe:/usr/bin/one")
        _ = try await fixture.authorizer.request(Self.app("three"), reason: "r", label: nil)
        await #expect(try fixture.store.read { try $0.apps() }.map(\.id) == ["exe:/usr/bin/three", "exe:/usr/bin/two"])
    }

    @Test func removingAnAppEndsItsRequestAndWhatItSaw() async throws {
        let fixture = try await Fixture()
        // The daemon's own user: the one the owner's decisions about a new id are for.
        let viewer = Self.app("viewer", uid: getuid())
        _ = try await fixture.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
        _ = try await fixture.authorizer.reset(viewer.id)
        let (_, answers) = try await fixture.authorizer.request(viewer, reason: "to show photos", label: "Viewer")
        let (_, events) = await fixture.authorizer.watch(app: nil)
        _ = try await fixture.authorizer.decide("viewer", status: .authorized, assets: [], groups: [])
        var replies: [RequestAuthorizationReply] = []
        for await reply in answers { replies.append(reply) }
        #expect(replies.last == RequestAuthorizationReply(status: .authorized, pending: false))

        _ = try await fixture.authorizer.remove("viewer")
        #expect(await fixture.authorizer.allRecords().isEmpty)
        await #expect(try fixture.store.read { try $0.apps() }.isEmpty)
        #expect(fixture.visibility.all.last?.0 == AppKey(viewer).text)
        #expect(fixture.visibility.all.last?.1 == Visibility.none)
        var kinds: [AuthorizationEventKind] = []
        for await event in events {
            kinds.append(event.kind)
            if event.kind == .removed { break }
        }
        #expect(kinds == [.decided, .removed])
        await #expect(throws: AuthorizationCallError.unknownApp("viewer")) {
            _ = try await fixture.authorizer.remove("viewer")
        }
        #expect(await fixture.authorizer.record(for: viewer).status == .notDetermined)
    }

    @Test func aRecordThatWouldNotFitItsBudgetIsRefusedWhole() async throws {
        let fixture = try await Fixture()
        // Within every byte limit, but JSON spells each control character in six bytes.
        let controls = String(repeating: "\u{1}", count: 1000)
        let label = String(repeating: "\u{1}", count: 200)
        let deep = AppIdentity(id: "exe:/" + String(repeating: "\u{1}", count: 1000), uid: 1000, source: .executable,
                               executable: "/x")
        await #expect(throws: AuthorizationCallError.tooLarge(parameter: "reason")) {
            _ = try await fixture.authorizer.request(deep, reason: controls, label: label)
        }
        #expect(await fixture.authorizer.allRecords().isEmpty)

        let many = (0..<1000).map { String(format: "%016d", $0) }
        await #expect(throws: AuthorizationCallError.self) {
            _ = try await fixture.authorizer.decide("exe:/usr/bin/eog", status: .limited, assets: many, groups: [])
        }
        #expect(await fixture.authorizer.allRecords().isEmpty, "a refused decision leaves no record behind")
    }

    @Test func theSameAppOfTwoUsersHasTwoDecisions() async throws {
        let fixture = try await Fixture()
        let mine = Self.app("eog")
        let theirs = Self.app("eog", uid: 1001)
        _ = try await fixture.authorizer.request(mine, reason: "mine", label: nil)
        _ = try await fixture.authorizer.request(theirs, reason: "theirs", label: nil)
        await #expect(throws: AuthorizationCallError.ambiguous("eog", candidates: [AppKey(mine), AppKey(theirs)])) {
            _ = try await fixture.authorizer.decide("eog", status: .authorized, assets: [], groups: [])
        }
        _ = try await fixture.authorizer.decide("eog", uid: 1001, status: .authorized, assets: [], groups: [])
        #expect(await fixture.authorizer.record(for: theirs).status == .authorized)
        #expect(await fixture.authorizer.record(for: mine).status == .notDetermined)
        #expect(fixture.visibility.all.map(\.0) == [AppKey(theirs).text])
        await #expect(try fixture.store.read { try $0.apps() }.map(\.uid) == [1000, 1001])
    }

    /// Issue 11, item 3: records stored by 0.1.0 with reasons of 600 KB made ListApps fail
    /// for good. Loaded now, such a record keeps its decision and loses what the app wrote.
    @Test func anOversizedStoredRecordIsTrimmedOnLoadAndKeepsItsDecision() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let old = AppAuthorization(app: "exe:/usr/bin/eog", uid: 1000, label: "Eog", status: .denied,
                                   reason: "a" + String(repeating: "\u{301}", count: 300_000))
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: old.app, record: try JSONEncoder().encode(old))) }
        let authorizer = try await Authorizer(store: store, policy: AuthorizationPolicy(), logger: Logger(label: "test")) { _, _ in }
        let loaded = try #require(await authorizer.allRecords().first)
        #expect(loaded.status == .denied)
        #expect(loaded.reason == nil && loaded.label == nil)
        #expect(AuthorizationLimits.fits(loaded))
        await #expect(try store.read { try $0.apps() }.first.map { $0.record.count } ?? .max < AuthorizationLimits.maximumRecordBytes)
    }

    @Test func undecidedRecordsBeyondTheCapAreForgottenOnLoadAndDecisionsKept() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        for (index, status) in [AuthorizationStatus.notDetermined, .denied, .notDetermined, .authorized, .notDetermined]
            .enumerated() {
            let record = AppAuthorization(app: "exe:/usr/bin/app\(index)", uid: 1000, status: status,
                                          requestedAt: Date(timeIntervalSince1970: Double(index)))
            try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: record.app, record: try JSONEncoder().encode(record))) }
        }
        let authorizer = try await Authorizer(store: store, policy: AuthorizationPolicy(), logger: Logger(label: "test"),
                                        maximumApps: 3) { _, _ in }
        let kept = await authorizer.allRecords().map(\.app)
        #expect(kept == ["exe:/usr/bin/app1", "exe:/usr/bin/app3", "exe:/usr/bin/app4"], "the newest undecided stays")
        await #expect(try store.read { try $0.apps() }.map(\.id) == kept)
    }

    @Test func aRequestIsLoggedByItsSizeNotItsText() async throws {
        let fixture = try await Fixture()
        let forged = "x\nphotod: owner decided app=exe:/usr/bin/evil status=authorized"
        _ = try await fixture.authorizer.request(Self.app("evil"), reason: forged, label: nil)
        let line = try #require(fixture.log.all.first { $0.hasPrefix("authorization requested") })
        #expect(!line.contains("owner decided"))
        #expect(line.contains("reason_bytes=\(forged.utf8.count)"))
    }
}
