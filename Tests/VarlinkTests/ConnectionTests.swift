import Foundation
import NIOCore
import NIOPosix
import PhotoTestSupport
import Testing
import Posix

@testable import Varlink

private typealias Text = TestService.Text

@Suite("Connections: isolation, cancellation, limits", .timeLimit(.minutes(1)))
struct ConnectionTests {
    @Test("a client that pipelines calls and never reads stalls only itself")
    func stuckClient() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        // A plain non-blocking socket, so what it manages to send is exactly what the kernel and
        // the server took in. Each reply carries 2 KiB, so a few hundred unread replies fill the
        // socket buffers and the server stops reading.
        let stuck = try connectedUnixSocket(server.path)
        defer { close(stuck) }
        let payload = String(repeating: "p", count: 2048)
        let call = Array(#"{"method":"org.example.test.Echo","parameters":{"text":"\#(payload)"}}"#.utf8) + [0]
        let batch = Array([[UInt8]](repeating: call, count: 100).joined())
        let offered = batch.count * 200
        var accepted = 0
        var idleRounds = 0
        while accepted < offered, idleRounds < 10 {
            let sent = batch.withUnsafeBytes { send(stuck, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if sent > 0 {
                accepted += sent
                idleRounds = 0
            } else {
                idleRounds += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(service.calls > 0)
        // 40 MB were on offer; the server took in only what its buffers hold.
        #expect(accepted < 8 << 20, "the server kept reading without bound: \(accepted) bytes")

        let started = ContinuousClock.now
        let other = try await VarlinkClient.connect(unixSocketPath: server.path)
        for index in 0..<20 {
            let reply = try await withTimeout(15) {
                try await other.call("org.example.test.Echo", Text(text: "\(index)"), returning: Text.self)
            }
            #expect(reply.text == "\(index)")
        }
        // A stall would be unbounded; the bound only keeps a loaded CI machine from failing it.
        #expect(ContinuousClock.now - started < .seconds(60))
        await other.close()
        // Stopping the server does not hang on the stuck connection.
        try await server.stop()
    }

    @Test("a streaming handler is cancelled when its client closes the connection")
    func streamCancelledOnClose() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        let stream = client.stream("org.example.test.Forever", Empty(), returning: TestService.Count.self)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next()?.n == 0)
        #expect(service.foreverStarted == 1)
        #expect(service.foreverCancelled == 0)
        await client.close()
        #expect(await eventually { service.foreverCancelled == 1 })
        #expect(await eventually { server.server.connectionCount == 0 })
        try await server.stop()
    }

    @Test("the same holds for a raw client that just closes its socket")
    func streamCancelledOnRawClose() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        try await withRawConnection(server.path) { reader, writer in
            try await writer.send(#"{"method":"org.example.test.Forever","more":true}"#)
            #expect(try await reader.nextObject()?["continues"] as? Bool == true)
        }
        #expect(await eventually { service.foreverCancelled == 1 })
        try await server.stop()
    }

    @Test("stopping the server cancels running handlers and closes connections")
    func shutdownCancelsHandlers() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        var iterator = client.stream("org.example.test.Forever", Empty(), returning: TestService.Count.self).makeAsyncIterator()
        #expect(try await iterator.next()?.n == 0)
        try await server.stop()
        #expect(service.foreverCancelled == 1)
        await #expect(throws: VarlinkClientError.disconnected) { try await iterator.next() }
        #expect(!FileManager.default.fileExists(atPath: server.path))
    }

    @Test("stopping while clients pile up, or dropping a server never run, closes every connection cleanly")
    func stopUnderLoad() async throws {
        var configuration = VarlinkServer.Configuration()
        configuration.maxConnections = 8
        for _ in 0..<5 {
            let server = try await RunningServer.start(interfaces: [TestService().interface], configuration: configuration)
            let sockets = try (0..<100).map { _ in try connectedUnixSocket(server.path) }
            try await server.stop()
            sockets.forEach { close($0) }
        }
        // Started, never run: the connections wait in the listening socket's queue until the
        // server goes away.
        let path = temporarySocketPath()
        var server: VarlinkServer? = VarlinkServer(
            listener: .path(path), interfaces: [],
            info: VarlinkServiceInfo(vendor: "v", product: "p", version: "1", url: "u"), logger: LogRecorder().logger()
        )
        try await server?.start()
        let sockets = try (0..<20).map { _ in try connectedUnixSocket(path) }
        try await Task.sleep(for: .milliseconds(100))
        server = nil
        try await Task.sleep(for: .milliseconds(200))
        sockets.forEach { close($0) }
        removeSocketFolder(of: path)
    }

    @Test("a client on the calling thread calls, streams and closes as one on its own thread does")
    func callingThreadClient() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path, onCallingThread: true)
        #expect(try await client.call("org.example.test.Echo", Text(text: "here"), returning: Text.self).text == "here")
        #expect(try await client.call("org.example.test.Echo", Text(text: "again"), returning: Text.self).text == "again")
        var replies = client.stream("org.example.test.Forever", Empty(), returning: TestService.Count.self).makeAsyncIterator()
        #expect(try await replies.next()?.n == 0)
        await client.close()
        #expect(await eventually { service.foreverCancelled == 1 })
        #expect(await eventually { server.server.connectionCount == 0 })
        try await server.stop()
    }

    @Test("past maxConnections a new connection is closed at once; a freed slot is reused")
    func connectionCap() async throws {
        var configuration = VarlinkServer.Configuration()
        configuration.maxConnections = 2
        configuration.ownerReservedConnections = 0
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface], configuration: configuration)
        let first = try await VarlinkClient.connect(unixSocketPath: server.path)
        let second = try await VarlinkClient.connect(unixSocketPath: server.path)
        #expect(try await first.call("org.example.test.Echo", Text(text: "1"), returning: Text.self).text == "1")
        #expect(try await second.call("org.example.test.Echo", Text(text: "2"), returning: Text.self).text == "2")
        #expect(server.server.connectionCount == 2)

        let refused = try await withRawConnection(server.path) { reader, writer in
            try? await writer.send(#"{"method":"org.example.test.Echo","parameters":{"text":"3"}}"#)
            return await reader.isClosedByServer()
        }
        #expect(refused)
        #expect(server.log.all.contains { $0.message.contains("connection limit") })
        #expect(try await first.call("org.example.test.Echo", Text(text: "1b"), returning: Text.self).text == "1b")

        await second.close()
        #expect(await eventually { server.server.connectionCount == 1 })
        let third = try await VarlinkClient.connect(unixSocketPath: server.path)
        #expect(try await third.call("org.example.test.Echo", Text(text: "3"), returning: Text.self).text == "3")
        await first.close()
        await third.close()
        try await server.stop()
    }
}

@Suite("Socket file life cycle", .timeLimit(.minutes(1)))
struct SocketFileTests {
    @Test("creates the folder 0700 and the socket 0600, removes the socket on stop")
    func permissions() async throws {
        let path = temporarySocketPath("sub/dir/sock")
        let server = try await RunningServer.start(interfaces: [], path: path)
        let socketMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folder = (path as NSString).deletingLastPathComponent
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(socketMode == 0o600)
        #expect(folderMode == 0o700)
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
        try? FileManager.default.removeItem(atPath: "/" + path.split(separator: "/").prefix(2).joined(separator: "/"))
    }

    @Test("a stale socket file (nobody listening) is replaced")
    func staleSocket() async throws {
        let path = temporarySocketPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = try boundUnixSocket(path, listening: false)
        close(descriptor)
        #expect(SocketFile.kind(at: path) == .socket)
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface], path: path)
        let client = try await VarlinkClient.connect(unixSocketPath: path)
        #expect(try await client.call("org.example.test.Echo", Text(text: "fresh"), returning: Text.self).text == "fresh")
        await client.close()
        #expect(server.log.all.contains { $0.message.contains("stale") })
        try await server.stop()
    }

    @Test("a live socket is not taken over; the running server keeps serving")
    func liveSocket() async throws {
        let service = TestService()
        let first = try await RunningServer.start(interfaces: [service.interface])
        let second = VarlinkServer(
            listener: .path(first.path),
            interfaces: [],
            info: VarlinkServiceInfo(vendor: "v", product: "p", version: "1", url: "u"),
            logger: LogRecorder().logger()
        )
        await #expect(throws: VarlinkServerError.alreadyListening(path: first.path)) { try await second.start() }
        #expect(VarlinkServerError.alreadyListening(path: "/x").description == "another server is listening on /x")
        let client = try await VarlinkClient.connect(unixSocketPath: first.path)
        #expect(try await client.call("org.example.test.Echo", Text(text: "first"), returning: Text.self).text == "first")
        await client.close()
        try await first.stop()
    }

    @Test("a file that is not a socket is left alone")
    func notASocket() async throws {
        let path = temporarySocketPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let server = VarlinkServer(
            listener: .path(path), interfaces: [],
            info: VarlinkServiceInfo(vendor: "v", product: "p", version: "1", url: "u"), logger: LogRecorder().logger()
        )
        await #expect(throws: VarlinkServerError.notASocket(path: path)) { try await server.run() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        removeSocketFolder(of: path)
    }

    @Test("an inherited listening socket (socket activation) is served and not unlinked")
    func inheritedDescriptor() async throws {
        let path = temporarySocketPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = try boundUnixSocket(path, listening: true)
        let service = TestService()
        let server = VarlinkServer(
            listener: .inheritedFileDescriptor(descriptor), interfaces: [service.interface],
            info: VarlinkServiceInfo(vendor: "v", product: "p", version: "1", url: "u"), logger: LogRecorder().logger()
        )
        try await server.start()
        let task = Task { try await server.run() }
        let client = try await VarlinkClient.connect(unixSocketPath: path)
        #expect(try await client.call("org.example.test.Echo", Text(text: "activated"), returning: Text.self).text == "activated")
        await client.close()
        task.cancel()
        try await task.value
        // systemd owns the file of a socket it passed in.
        #expect(FileManager.default.fileExists(atPath: path))
        removeSocketFolder(of: path)
    }

    @Test("start() twice is refused")
    func startTwice() async throws {
        let server = try await RunningServer.start(interfaces: [])
        await #expect(throws: VarlinkServerError.alreadyStarted) { try await server.server.start() }
        try await server.stop()
    }
}

@Suite("Client", .timeLimit(.minutes(1)))
struct ClientTests {
    @Test("connecting where nothing listens throws VarlinkConnectError with the errno text")
    func nothingListens() async throws {
        let path = temporarySocketPath()
        let missing = await #expect(throws: VarlinkConnectError.self) {
            try await VarlinkClient.connect(unixSocketPath: path)
        }
        #expect(missing?.errno == ENOENT)
        #expect(missing?.description == "cannot connect to \(path): No such file or directory")

        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        close(try boundUnixSocket(path, listening: false))
        let refused = await #expect(throws: VarlinkConnectError.self) {
            try await VarlinkClient.connect(unixSocketPath: path)
        }
        #expect(refused?.errno == ECONNREFUSED)
        #expect(refused?.reason == "Connection refused")
        removeSocketFolder(of: path)
    }

    @Test("a second call during a stream is refused as busy; leaving a stream early closes the client")
    func oneCallAtATime() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        do {
            var iterator = client.stream("org.example.test.Forever", Empty(), returning: TestService.Count.self).makeAsyncIterator()
            #expect(try await iterator.next()?.n == 0)
            await #expect(throws: VarlinkClientError.busy) {
                try await client.call("org.example.test.Echo", Text(text: "x"), returning: Text.self)
            }
        }
        // The abandoned stream closed the connection: the server's handler is cancelled.
        #expect(await eventually { service.foreverCancelled == 1 })
        await #expect(throws: VarlinkClientError.closed) {
            try await client.call("org.example.test.Echo", Text(text: "x"), returning: Text.self)
        }
        try await server.stop()
    }

    @Test("an error reply ends a stream with VarlinkError")
    func streamError() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        await #expect(throws: VarlinkError.interfaceNotFound("org.example.nope")) {
            for try await _ in client.stream("org.example.nope.X", Empty(), returning: Empty.self) {}
        }
        #expect(try await client.call("org.example.test.Echo", Text(text: "y"), returning: Text.self).text == "y")
        await client.close()
        await #expect(throws: VarlinkClientError.closed) {
            try await client.call("org.example.test.Echo", Text(text: "x"), returning: Text.self)
        }
        try await server.stop()
    }

    @Test("cancelling a call throws CancellationError and closes the client")
    func cancelledCall() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        let call = Task { try await client.call("org.example.test.Sleep", TestService.Millis(ms: 60_000), returning: TestService.Millis.self) }
        #expect(await eventually { service.calls == 1 })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        await #expect(throws: VarlinkClientError.closed) {
            try await client.call("org.example.test.Echo", Text(text: "x"), returning: Text.self)
        }
        try await server.stop()
    }

    @Test("a server going away mid-call is reported as disconnected")
    func serverGoesAway() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        let client = try await VarlinkClient.connect(unixSocketPath: server.path)
        let call = Task { try await client.call("org.example.test.Sleep", TestService.Millis(ms: 60_000), returning: TestService.Millis.self) }
        #expect(await eventually { service.calls == 1 })
        try await server.stop()
        await #expect(throws: VarlinkClientError.disconnected) { try await call.value }
    }
}

/// A plain connected Unix socket, for a client that must not be buffered by NIO.
func connectedUnixSocket(_ path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    let address = try SocketAddress(unixDomainSocketPath: path)
    guard address.withSockAddr({ connect(descriptor, $0, socklen_t($1)) }) == 0 else {
        close(descriptor)
        throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    return descriptor
}

/// A Unix socket bound at `path` (and listening when asked), made with plain POSIX calls:
/// the stand-in for a crashed server's leftover file and for systemd's socket activation.
func boundUnixSocket(_ path: String, listening: Bool) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    let address = try SocketAddress(unixDomainSocketPath: path)
    let bound = address.withSockAddr { pointer, size in bind(descriptor, pointer, socklen_t(size)) }
    guard bound == 0, !listening || listen(descriptor, 16) == 0 else {
        close(descriptor)
        throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    return descriptor
}

/// A server that answers every call with the next scripted message, verbatim.
private func withScriptedServer(
    _ replies: [String],
    _ body: (String) async throws -> Void
) async throws {
    let path = temporarySocketPath()
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    defer { removeSocketFolder(of: path) }
    let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .bind(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    try await listener.executeThenClose { connections in
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await connection in connections {
                    try await connection.executeThenClose { inbound, outbound in
                        var decoder = VarlinkFrameDecoder()
                        var script = replies[...]
                        for try await buffer in inbound {
                            decoder.append(buffer.readableBytesView)
                            while try decoder.nextFrame() != nil, let reply = script.popFirst() {
                                try await outbound.send(reply)
                            }
                        }
                    }
                }
            }
            try await body(path)
            group.cancelAll()
        }
    }
}

@Suite("Client against odd servers", .timeLimit(.minutes(1)))
struct ClientOddServerTests {
    struct Optional: Decodable, Sendable, Equatable { var x: Int? }

    @Test("missing or null parameters read as {}; an error without parameters has none")
    func lenientReplies() async throws {
        try await withScriptedServer([#"{}"#, #"{"parameters":null}"#, #"{"error":"x.Y.Oops"}"#, #"{"error":"x.Y.Oops","parameters":null}"#]) { path in
            let client = try await VarlinkClient.connect(unixSocketPath: path)
            #expect(try await client.call("x.Y.A", Empty(), returning: Optional.self) == Optional(x: nil))
            #expect(try await client.call("x.Y.A", Empty(), returning: Optional.self) == Optional(x: nil))
            await #expect(throws: VarlinkError("x.Y.Oops")) { try await client.call("x.Y.A", Empty(), returning: Empty.self) }
            await #expect(throws: VarlinkError("x.Y.Oops")) { try await client.call("x.Y.A", Empty(), returning: Empty.self) }
            await client.close()
        }
    }

    @Test("continues on a call without more, or a non-object reply, closes the client", arguments: [
        #"{"parameters":{},"continues":true}"#, "[1]", "not json",
    ])
    func invalidReplies(_ reply: String) async throws {
        try await withScriptedServer([reply, "{}"]) { path in
            let client = try await VarlinkClient.connect(unixSocketPath: path)
            await #expect(throws: VarlinkClientError.self) { try await client.call("x.Y.A", Empty(), returning: Empty.self) }
            await #expect(throws: VarlinkClientError.closed) { try await client.call("x.Y.A", Empty(), returning: Empty.self) }
        }
    }
}
