import Foundation
import Testing

@testable import Varlink

/// VarlinkClient.callOneway: the varlink certification's Test11 must be called with `oneway`.
@Suite("Client oneway calls", .timeLimit(.minutes(1)))
struct OnewayCallTests {
    /// The wire form: `oneway` added, no `more`; a plain call still has neither.
    @Test("a oneway call message sets oneway and nothing else")
    func message() throws {
        let bytes = try JSONWire.call(method: "a.B.C", parametersJSON: Array(#"{"x":1}"#.utf8), more: false, oneway: true)
        #expect(bytes == Array(#"{"method":"a.B.C","parameters":{"x":1},"oneway":true}"#.utf8) + [0])
        let plain = try JSONWire.call(method: "a.B.C", parametersJSON: JSONWire.emptyObject, more: false)
        #expect(plain == Array(#"{"method":"a.B.C","parameters":{}}"#.utf8) + [0])
    }

    /// End to end against VarlinkServer, which drops replies to oneway calls.
    @Test("callOneway runs the method, reads no reply, and the next call gets its own answer")
    func onewayThenCall() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        // Notify replies, so a server that answered a oneway call would hand Echo a stale reply.
        try await client.callOneway("org.example.test.Notify", TestService.Text(text: "first"))
        try await client.callOneway("org.example.test.Notify", TestService.Text(text: "second"))
        #expect(try await client.call("org.example.test.Echo", TestService.Text(text: "echo"), returning: TestService.Text.self).text == "echo")
        // The server handles one connection's calls in order, so both ran before Echo answered.
        #expect(service.notes == ["first", "second"])
        await client.close()
        try await server.stop()
    }
}
