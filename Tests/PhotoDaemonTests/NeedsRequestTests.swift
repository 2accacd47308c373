import PhotoAPI
import Testing
import Varlink
@testable import PhotoDaemon

/// The rules of a request with needs that need no daemon: which calls are well formed, and what
/// the answer says once the owner has decided.
@Suite struct NeedsRequestRulesTests {
    static let read = Need(level: .readWrite, required: true, reason: "to show trips")
    static let add = Need(level: .addOnly, required: false, reason: "to save copies")

    @Test func needsAreOneOrTwoDistinctLevelsWithinTheirLimitAndNotBesideTheSingleForm() throws {
        #expect(try NeedsRequest.needs(of: RequestAuthorizationParameters(needs: [Self.read, Self.add])) == [Self.read, Self.add])
        #expect(try NeedsRequest.needs(of: RequestAuthorizationParameters(reason: "single")) == nil)
        let refused: [RequestAuthorizationParameters] = [
            RequestAuthorizationParameters(needs: []),
            RequestAuthorizationParameters(needs: [Self.add, Self.add]),
            RequestAuthorizationParameters(reason: "both", needs: [Self.read]),
            RequestAuthorizationParameters(level: .addOnly, needs: [Self.add]),
            RequestAuthorizationParameters(needs: [Need(level: .readWrite, required: true, reason: String(repeating: "x", count: 1001))]),
        ]
        for parameters in refused {
            #expect(throws: VarlinkError.self, "\(parameters)") { try NeedsRequest.needs(of: parameters) }
        }
    }

    @Test func theAnswerNamesRequiredLevelsThatGrantNothing() {
        let denied = NeedsRequest.reply([Self.read, Self.add], [.readWrite: .denied, .addOnly: .authorized], pending: false)
        #expect(denied.statuses?.map(\.status) == [.denied, .authorized])
        #expect(denied.missingRequired == ["readWrite"])
        #expect(denied.status == .denied && !denied.pending)
        let limited = NeedsRequest.reply([Self.read], [.readWrite: .limited], pending: false)
        #expect(limited.missingRequired == [], "limited grants reading")
        let addRequired = Need(level: .addOnly, required: true, reason: "r")
        #expect(NeedsRequest.reply([addRequired], [.addOnly: .denied], pending: false).missingRequired == ["addOnly"])
        let waiting = NeedsRequest.reply([Self.read, Self.add], [.readWrite: .notDetermined], pending: true)
        #expect(waiting.missingRequired == [], "nothing is missing while the owner decides")
        #expect(waiting.statuses?.map(\.status) == [.notDetermined, .notDetermined])
    }
}
