import Foundation
import Testing

@testable import Varlink
@testable import VarlinkCore

/// Replies that carry file descriptors (SCM_RIGHTS), from VarlinkReplier to
/// VarlinkDescriptorClient, to Python's socket.recv_fds and to readers that take only the bytes.
@Suite struct DescriptorPassingTests {
    typealias Service = DescriptorService

    /// How long a client waits for a reply: the in-process server shares the unit run's two
    /// concurrency threads with every test starting at once, which held them 43 s in one run.
    static let replyWait = Duration.seconds(120)

    /// Runs `body` on its own thread with a server of DescriptorService and a file to open.
    private func withServer<T: Sendable>(
        fileBytes: Int = 4096,
        _ body: (_ socket: String, _ file: TemporaryFile) throws -> T
    ) async throws -> T {
        let server = try await RunningServer.start(interfaces: [DescriptorService().interface])
        let file = try TemporaryFile(bytes: fileBytes)
        defer { file.remove() }
        do {
            let result = try await onOwnThread { try body(server.path, file) }
            try await server.stop()
            return result
        } catch {
            try await server.stop()
            throw error
        }
    }

    @Test func aReplyCarriesTheOpenFileItNames() async throws {
        try await self.withServer { socket, file in
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            let (reply, descriptors) = try client.call(
                "org.example.fd.OpenFile", Service.OpenFile(path: file.path), returning: Service.Opened.self
            )
            #expect(reply.fileDescriptor == 0)
            #expect(descriptors.count == 1)
            let descriptor = try #require(descriptors.take(reply.fileDescriptor))
            defer { close(descriptor) }
            #expect(readAll(descriptor) == file.contents)
            #expect(descriptors.take(0) == nil, "a descriptor is handed out once")
        }
    }

    @Test func twoDescriptorsInOneReplyKeepTheirOrder() async throws {
        try await self.withServer { socket, file in
            let second = try TemporaryFile(bytes: 100)
            defer { second.remove() }
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            let (reply, descriptors) = try client.call(
                "org.example.fd.OpenTwo", Service.OpenTwo(first: file.path, second: second.path),
                returning: Service.OpenedTwo.self
            )
            #expect(descriptors.count == 2)
            let first = try #require(descriptors.take(reply.first))
            let other = try #require(descriptors.take(reply.second))
            defer { close(first); close(other) }
            #expect(readAll(first) == file.contents)
            #expect(readAll(other) == second.contents)
        }
    }

    @Test func successiveCallsOnOneConnectionEachGetTheirOwnFile() async throws {
        try await self.withServer { socket, _ in
            let files = try (0..<5).map { _ in try TemporaryFile(bytes: Int.random(in: 1...5000)) }
            defer { files.forEach { $0.remove() } }
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            for file in files {
                let (_, descriptors) = try client.call(
                    "org.example.fd.OpenFile", Service.OpenFile(path: file.path), returning: Service.Opened.self
                )
                #expect(descriptors.count == 1)
                let descriptor = try #require(descriptors.take(0))
                defer { close(descriptor) }
                #expect(readAll(descriptor) == file.contents)
                // A plain reply in between carries nothing.
                let (plain, none) = try client.call("org.example.fd.Big", Service.Big(bytes: 10), returning: Service.Big.self)
                #expect(plain.padding?.count == 10)
                #expect(none.count == 0)
            }
        }
    }

    @Test func aBigReplyArrivesWholeWithItsDescriptor() async throws {
        try await self.withServer(fileBytes: 300_000) { socket, file in
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            for _ in 0..<3 {
                let (reply, descriptors) = try client.call(
                    "org.example.fd.OpenFile", Service.OpenFile(path: file.path, padding: 600_000),
                    returning: Service.Opened.self
                )
                #expect(reply.padding == String(repeating: "x", count: 600_000))
                #expect(descriptors.count == 1)
                let descriptor = try #require(descriptors.take(0))
                defer { close(descriptor) }
                #expect(readAll(descriptor) == file.contents)
            }
        }
    }

    /// A reply with descriptors behind a reply NIO still holds: it must wait for it, and the
    /// descriptors must come with the second reply's bytes, not the first's.
    @Test func descriptorsWaitForEarlierRepliesAndStayWithTheirOwn() async throws {
        try await self.withServer { socket, file in
            let connection = try BlockingUnixSocket.open(path: socket, timeout: .seconds(120))
            defer { connection.release() }
            let big = try JSONWire.call(method: "org.example.fd.Big", parametersJSON: JSONWire.encodeObject(Service.Big(bytes: 1_000_000)), more: false)
            let open = try JSONWire.call(method: "org.example.fd.OpenFile", parametersJSON: JSONWire.encodeObject(Service.OpenFile(path: file.path)), more: false)
            try connection.sendAll(big + open)
            // Unread, the first reply fills the socket and then NIO's buffer.
            Thread.sleep(forTimeInterval: 0.3)
            var buffer = [UInt8](repeating: 0, count: 65536)
            var messages = 0
            var descriptorsByMessage: [Int: [Int32]] = [:]
            var bytes: [UInt8] = []
            while messages < 2 {
                let received = try buffer.withUnsafeMutableBytes { try connection.receive(into: $0) }
                try #require(received.count > 0)
                let chunk = buffer[..<received.count]
                if !received.descriptors.isEmpty {
                    descriptorsByMessage[messages + chunk.dropLast().count { $0 == 0 }, default: []] += received.descriptors
                }
                messages += chunk.count { $0 == 0 }
                bytes += chunk
            }
            defer { descriptorsByMessage.values.joined().forEach { close($0) } }
            #expect(messages == 2 && bytes.last == 0)
            #expect(descriptorsByMessage[0] == nil)
            let descriptor = try #require(descriptorsByMessage[1]?.first)
            #expect(descriptorsByMessage[1]?.count == 1)
            #expect(readAll(descriptor) == file.contents)
            let second = try #require(bytes.split(separator: 0).last)
            #expect(String(decoding: second, as: UTF8.self) == #"{"parameters":{"fileDescriptor":0}}"#)
        }
    }

    @Test func aReaderWithoutAControlBufferStillGetsTheWholeReply() async throws {
        try await self.withServer(fileBytes: 10) { socket, file in
            let connection = try BlockingUnixSocket.open(path: socket, timeout: .seconds(120))
            defer { connection.release() }
            let call = try JSONWire.call(
                method: "org.example.fd.OpenFile",
                parametersJSON: JSONWire.encodeObject(Service.OpenFile(path: file.path, padding: 100_000)), more: false
            )
            try connection.sendAll(call)
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while reply.last != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
                try #require(count > 0)
                reply += buffer[..<count]
            }
            let padding = String(repeating: "x", count: 100_000)
            #expect(String(decoding: reply.dropLast(), as: UTF8.self) == #"{"parameters":{"fileDescriptor":0,"padding":"\#(padding)"}}"#)
            // The kernel closed what it could not deliver; nothing of it is left in this process.
            #expect(file.isClosedEverywhere())
        }
    }

    @Test func neitherSideLeaksDescriptors() async throws {
        try await self.withServer { socket, file in
            #expect(file.openDescriptorCount == 0)
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            for round in 0..<100 {
                let (_, descriptors) = try client.call(
                    "org.example.fd.OpenFile", Service.OpenFile(path: file.path), returning: Service.Opened.self
                )
                if round.isMultiple(of: 2), let descriptor = descriptors.take(0) {
                    close(descriptor)
                }
            }
            _ = try? client.call("org.example.fd.TooMany", Service.Path(path: file.path), returning: Empty.self)
            #expect(file.isClosedEverywhere())
        }
    }

    @Test func anErrorReplyThrowsAndTheConnectionStaysUsable() async throws {
        try await self.withServer { socket, file in
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: Self.replyWait)
            let tooMany = #expect(throws: VarlinkError.self) {
                try client.call("org.example.fd.TooMany", Service.Path(path: file.path), returning: Empty.self)
            }
            #expect(tooMany?.name == "org.example.fd.TooMany")
            #expect(tooMany?.parameters(Service.Limit.self)?.limit == 16)
            // sendmsg refused the descriptor: the call is still answered, not left hanging.
            let notOpen = #expect(throws: VarlinkError.self) {
                try client.call("org.example.fd.NotOpen", Empty(), returning: Empty.self)
            }
            #expect(notOpen == .internalError())
            let missing = #expect(throws: VarlinkError.self) {
                try client.call("org.example.fd.Missing", Empty(), returning: Empty.self)
            }
            #expect(missing?.name == "org.varlink.service.MethodNotFound")
            let (_, descriptors) = try client.call(
                "org.example.fd.OpenFile", Service.OpenFile(path: file.path), returning: Service.Opened.self
            )
            #expect(descriptors.count == 1)
        }
    }

    @Test func aSilentServerTimesOutAndClosesTheConnection() async throws {
        try await self.withServer { socket, _ in
            let client = try VarlinkDescriptorClient.connect(unixSocketPath: socket, receiveTimeout: .milliseconds(200))
            #expect(throws: VarlinkFileDescriptorError.timedOut(seconds: 0.2)) {
                try client.call("org.example.fd.Stall", Service.Millis(ms: 5000), returning: Empty.self)
            }
            #expect(throws: VarlinkClientError.closed) {
                try client.call("org.example.fd.Big", Service.Big(bytes: 1), returning: Service.Big.self)
            }
        }
    }

    @Test func nothingListeningIsAConnectError() throws {
        let path = temporarySocketPath()
        let error = #expect(throws: VarlinkConnectError.self) {
            _ = try VarlinkDescriptorClient.connect(unixSocketPath: path)
        }
        #expect(error?.errno == ENOENT)
        #expect(error?.path == path)
    }

    @Test func pythonReceivesTheDescriptorWithRecvFds() async throws {
        let server = try await RunningServer.start(interfaces: [DescriptorService().interface])
        let file = try TemporaryFile(bytes: 5000)
        defer { file.remove() }
        let output = try await PythonVarlink.run(["python3", "-c", Self.pythonClient, server.path, file.path])
        try await server.stop()
        #expect(output.status == 0, "python: \(output.stderr)")
        let expected = file.contents.map { String(format: "%02x", $0) }.joined()
        #expect(output.stdout == "descriptors=1 \(expected)")
    }

    /// A raw-socket client: the call, then recv_fds until the reply's NUL. Its timeout, like the
    /// raw sockets' above, only ends a hang: the in-process server answers on the unit process's
    /// two concurrency threads, shared with some 900 tests, and a fresh CI machine took over 20 s.
    static let pythonClient = """
        import json, os, socket, sys
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(120)
        sock.connect(sys.argv[1])
        call = {"method": "org.example.fd.OpenFile", "parameters": {"path": sys.argv[2]}}
        sock.sendall(json.dumps(call).encode() + b"\\0")
        data, fds = b"", []
        while not data.endswith(b"\\0"):
            chunk, received, flags, _ = socket.recv_fds(sock, 65536, 16)
            if not chunk:
                raise SystemExit("the server closed the connection")
            data += chunk
            fds += received
        reply = json.loads(data[:-1])
        fd = fds[reply["parameters"]["fileDescriptor"]]
        content = b""
        while True:
            block = os.read(fd, 65536)
            if not block:
                break
            content += block
        sys.stdout.write("descriptors=%d %s" % (len(fds), content.hex()))
        """
}
