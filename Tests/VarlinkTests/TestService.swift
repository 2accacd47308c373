import Foundation
import Synchronization
import Testing

@testable import Varlink

/// The interface the end-to-end tests talk to, with counters the tests can watch.
final class TestService: Sendable {
    static let idl = """
        # A service for the varlink module's tests.
        interface org.example.test

        method Echo(text: string) -> (text: string)
        method Fail(reason: string) -> ()
        method Crash() -> ()
        method Silent() -> ()
        method Count(to: int) -> (n: int)
        method Forever() -> (n: int)
        method Notify(text: string) -> ()
        method Peer() -> (pid: int, uid: int, gid: int, address: ?string)
        method Sleep(ms: int) -> (ms: int)
        method Later() -> ()

        error Failure (reason: string)
        """

    struct Text: Codable, Sendable, Equatable { let text: String }
    struct Reason: Codable, Sendable, Equatable { let reason: String }
    struct Count: Codable, Sendable, Equatable { var to: Int? = nil; var n: Int? = nil }
    struct Peer: Codable, Sendable, Equatable {
        let pid: Int32
        let uid: UInt32
        let gid: UInt32
        var address: String? = nil
    }
    struct Millis: Codable, Sendable, Equatable { let ms: Int }

    private struct State {
        var calls = 0
        var notes: [String] = []
        var foreverStarted = 0
        var foreverCancelled = 0
    }

    private let state = Mutex(State())

    var calls: Int { self.state.withLock { $0.calls } }
    var notes: [String] { self.state.withLock { $0.notes } }
    var foreverStarted: Int { self.state.withLock { $0.foreverStarted } }
    var foreverCancelled: Int { self.state.withLock { $0.foreverCancelled } }

    var interface: VarlinkInterface {
        VarlinkInterface(name: "org.example.test", description: Self.idl) { call, context, replier in
            try await self.handle(call, context, replier)
        }
    }

    private func handle(_ call: VarlinkCall, _ context: VarlinkConnectionContext, _ replier: VarlinkReplier) async throws {
        self.state.withLock { $0.calls += 1 }
        switch call.methodName {
        case "Echo":
            try await replier.reply(try call.parameters(Text.self))
        case "Fail":
            let reason = try call.parameters(Reason.self)
            throw VarlinkError("org.example.test.Failure", parameters: reason)
        case "Crash":
            throw CocoaError(.fileReadNoPermission)
        case "Silent":
            return
        case "Count":
            let to = try call.parameters(Count.self).to ?? 0
            for n in 1...max(to, 1) {
                try await replier.reply(Count(n: n), continues: n < to)
            }
        case "Forever":
            self.state.withLock { $0.foreverStarted += 1 }
            do {
                try await replier.reply(Count(n: 0), continues: true)
                try await Task.sleep(for: .seconds(3600))
            } catch {
                self.state.withLock { $0.foreverCancelled += 1 }
                throw error
            }
        case "Notify":
            let text = try call.parameters(Text.self).text
            self.state.withLock { $0.notes.append(text) }
            try await replier.reply(Empty())
        case "Peer":
            guard let peer = context.peer else { throw VarlinkError.permissionDenied() }
            try await replier.reply(Peer(pid: peer.pid, uid: peer.uid, gid: peer.gid, address: peer.address))
        case "Sleep":
            let millis = try call.parameters(Millis.self)
            try await Task.sleep(for: .milliseconds(millis.ms))
            try await replier.reply(millis)
        default:
            throw VarlinkError.methodNotImplemented(call.method)
        }
    }
}
