import Dispatch
import Foundation
import PhotoTestSupport
import Testing
@testable import Varlink

/// The blocking client without SwiftNIO (VarlinkCore), which PhotoClient and so photoctl speak
/// through: streams read one reply per pull, and another thread can end any wait. Its calls run
/// on a thread of their own here, as PhotoClient runs them: blocking the concurrency pool's few
/// threads would stall the server's handlers, which run there.
@Suite struct BlockingClientTests {
    private func blocking(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            DispatchQueue(label: "blocking-client-test").async { continuation.resume(with: Result { try body() }) }
        }
    }

    @Test func aStreamGivesEachReplyInOrderThenTheConnectionTakesCalls() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        try await blocking {
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: server.path, receiveTimeout: nil)
            try client.startStream("org.example.test.Count", TestService.Count(to: 3))
            #expect(throws: VarlinkClientError.busy) {
                _ = try client.call("org.example.test.Echo", TestService.Text(text: "during"), returning: TestService.Text.self)
            }
            var seen: [Int] = []
            while let reply = try client.nextReply(as: TestService.Count.self) { seen.append(reply.n ?? 0) }
            #expect(seen == [1, 2, 3])
            #expect(!client.isStreaming)
            let echo = try client.call("org.example.test.Echo", TestService.Text(text: "after"), returning: TestService.Text.self)
            #expect(echo.reply.text == "after")
            client.close()
        }
        try await server.stop()
    }

    /// One process's connections differ only by the path each bound its end to: the server reads
    /// it with the credentials, and an unbound client has none.
    @Test func theServerSeesThePathAClientBoundItsEndTo() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let folder = try TemporaryDirectory()
        let address = folder.file("caller-1")
        try await blocking {
            let bound = try VarlinkDescriptorClient.connect(unixSocketPath: server.path, localAddress: address)
            let unbound = try VarlinkDescriptorClient.connect(unixSocketPath: server.path)
            let seen = try bound.call("org.example.test.Peer", Empty(), returning: TestService.Peer.self).reply
            #expect(seen == TestService.Peer(pid: getpid(), uid: getuid(), gid: getgid(), address: address))
            #expect(try unbound.call("org.example.test.Peer", Empty(), returning: TestService.Peer.self).reply.address == nil)
            bound.close()
            unbound.close()
        }
        try await server.stop()
    }

    @Test func anErrorReplyEndsTheStreamAndKeepsTheConnection() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        try await blocking {
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: server.path, receiveTimeout: nil)
            try client.startStream("org.example.test.Fail", ["reason": "no"])
            #expect(throws: VarlinkError.self) { _ = try client.nextReply(as: TestService.Count.self) }
            #expect(!client.isStreaming)
            let echo = try client.call("org.example.test.Echo", TestService.Text(text: "still"), returning: TestService.Text.self)
            #expect(echo.reply.text == "still")
            client.close()
        }
        try await server.stop()
    }

    @Test func theInterrupterEndsAWaitFromAnotherThreadAndClosesTheConnection() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        try await blocking {
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: server.path, receiveTimeout: nil)
            try client.startStream("org.example.test.Forever", Empty())
            #expect(try client.nextReply(as: TestService.Count.self)?.n == 0)
            let interrupter = client.interrupter
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { interrupter.interrupt() }
            // Without the interrupter this waits an hour: no timeout is set.
            let started = ContinuousClock.now
            #expect(throws: VarlinkClientError.disconnected) { _ = try client.nextReply(as: TestService.Count.self) }
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(throws: VarlinkClientError.closed) {
                _ = try client.call("org.example.test.Echo", TestService.Text(text: "gone"), returning: TestService.Text.self)
            }
            // Once closed, the descriptor may be another file's: interrupting touches nothing.
            interrupter.interrupt()
        }
        #expect(await eventually { service.foreverCancelled == 1 })
        try await server.stop()
    }
}
