import Foundation
import PhotoTestSupport
import Posix
import Testing

@testable import Varlink

/// A client that shuts down its sending side once its calls are out (varlink's bridge
/// convention) still gets every reply; one that then goes away still has its call cancelled.
@Suite("Half-closed clients", .timeLimit(.minutes(1)))
struct HalfCloseTests {
    @Test("calls sent before a half-close are all answered, the running one too, then the server closes")
    func repliesAfterHalfClose() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try connectedUnixSocket(server.path)
        defer { close(client) }
        // The first call still runs when the end of file comes; the others wait behind it.
        let calls = [
            #"{"method":"org.example.test.Sleep","parameters":{"ms":300}}"#,
            #"{"method":"org.example.test.Echo","parameters":{"text":"a"}}"#,
            #"{"method":"org.example.test.Echo","parameters":{"text":"b"}}"#,
        ]
        let bytes = Array(calls.map { Array($0.utf8) + [0] }.joined())
        #expect(bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } == bytes.count)
        #expect(shutdown(client, Int32(SHUT_WR)) == 0)
        let (received, ended) = await Self.readToEnd(client)
        let replies = received.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(replies.count == 3, "\(replies)")
        #expect(replies.first?.contains(#""ms":300"#) == true, "\(replies)")
        #expect(replies.dropFirst().first?.contains(#""text":"a""#) == true, "\(replies)")
        #expect(replies.last?.contains(#""text":"b""#) == true, "\(replies)")
        #expect(received.last == 0, "every reply whole")
        #expect(ended, "the server closes once the replies are out")
        try await server.stop()
    }

    @Test("a client gone after its half-close has its running call cancelled")
    func goneAfterHalfClose() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try connectedUnixSocket(server.path)
        let call = Array(#"{"method":"org.example.test.Forever","more":true}"#.utf8) + [0]
        #expect(call.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } == call.count)
        #expect(shutdown(client, Int32(SHUT_WR)) == 0)
        #expect(await eventually(within: 10) { service.foreverStarted == 1 })
        // Still running after the half-close: the client may yet read its replies.
        try await Task.sleep(for: .milliseconds(200))
        #expect(service.foreverCancelled == 0)
        close(client)
        #expect(await eventually(within: 10) { service.foreverCancelled == 1 })
        try await server.stop()
    }

    /// Everything the server sends until it closes (true) or 10 s pass or the read fails (false).
    private static func readToEnd(_ socket: Int32) async -> ([UInt8], Bool) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Blocking reads, off the concurrency pool.
        return await DetachedThread.result(name: "test-read") {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let got = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if got == 0 { return (received, true) }
                if got < 0 { return (received, false) }
                received += chunk[..<got]
            }
        }
    }
}
