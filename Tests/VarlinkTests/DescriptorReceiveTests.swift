import Foundation
import PhotoTestSupport
import Testing

@testable import Varlink
@testable import VarlinkCore

/// Calls that carry file descriptors (SCM_RIGHTS) to the server, as sd-varlink sends them: the
/// handler takes them, and the server closes the ones it leaves.
@Suite struct DescriptorReceiveTests {
    typealias Service = DescriptorService

    /// Runs `body` on its own thread with a server of DescriptorService.
    private func withServer<T: Sendable>(_ body: (_ socket: String) throws -> T) async throws -> T {
        let server = try await RunningServer.start(interfaces: [DescriptorService().interface])
        do {
            let result = try await onOwnThread { try body(server.path) }
            try await server.stop()
            return result
        } catch {
            try await server.stop()
            throw error
        }
    }

    @Test func aPassedFileReachesTheHandler() async throws {
        try await self.withServer { socket in
            let file = try TextFile("a photo's bytes")
            defer { file.remove() }
            var client = try PassingClient(socket)
            try client.send(#"{"method":"org.example.fd.ReadPassed"}"#, descriptors: [file.descriptor])
            #expect(try client.reply()?["contents"] as? [String] == ["a photo's bytes"])
        }
    }

    @Test func twoPassedFilesKeepTheirOrder() async throws {
        try await self.withServer { socket in
            let first = try TextFile("first")
            let second = try TextFile("second")
            defer { first.remove(); second.remove() }
            var client = try PassingClient(socket)
            try client.send(#"{"method":"org.example.fd.ReadPassed"}"#, descriptors: [first.descriptor, second.descriptor])
            #expect(try client.reply()?["contents"] as? [String] == ["first", "second"])
        }
    }

    @Test func aCallSplitOverSeveralWritesKeepsItsDescriptor() async throws {
        try await self.withServer { socket in
            let file = try TextFile("split")
            defer { file.remove() }
            var client = try PassingClient(socket)
            let message = Array(#"{"method":"org.example.fd.ReadPassed"}"#.utf8) + [0]
            try client.send(Array(message[..<5]), descriptors: [file.descriptor])
            Thread.sleep(forTimeInterval: 0.05)
            try client.socket.sendAll(Array(message[5..<20]))
            Thread.sleep(forTimeInterval: 0.05)
            try client.socket.sendAll(Array(message[20...]))
            #expect(try client.reply()?["contents"] as? [String] == ["split"])
        }
    }

    @Test func pipelinedCallsEachGetTheirOwnDescriptors() async throws {
        try await self.withServer { socket in
            let file = try TextFile("second call's")
            defer { file.remove() }
            var client = try PassingClient(socket)
            // Sent before any reply is read, so one recvmsg may well bring both calls: the
            // descriptor belongs to the call its bytes start, not to the chunk's first call.
            for _ in 0..<20 {
                try client.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: [])
                try client.send(#"{"method":"org.example.fd.ReadPassed"}"#, descriptors: [file.descriptor])
                try client.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: [])
            }
            for _ in 0..<20 {
                #expect(try client.reply()?["count"] as? Int == 0)
                #expect(try client.reply()?["contents"] as? [String] == ["second call's"])
                #expect(try client.reply()?["count"] as? Int == 0)
            }
        }
    }

    @Test func aCallOfNearlyAMebibyteKeepsItsDescriptor() async throws {
        try await self.withServer { socket in
            let file = try TextFile("large")
            defer { file.remove() }
            var client = try PassingClient(socket)
            // Many recvmsg chunks, and more than a pipe holds: the relay waits for NIO to read.
            let padding = String(repeating: "p", count: 1_000_000)
            try client.send(#"{"method":"org.example.fd.ReadPassed","parameters":{"padding":"\#(padding)"}}"#, descriptors: [file.descriptor])
            try client.send(#"{"method":"org.example.fd.ReadPassed"}"#, descriptors: [])
            #expect(try client.reply()?["contents"] as? [String] == ["large"])
            #expect(try client.reply()?["contents"] as? [String] == [])
        }
    }

    @Test func descriptorsTheHandlerLeavesAreClosedAfterTheCall() async throws {
        try await self.withServer { socket in
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            var client = try PassingClient(socket)
            try client.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: [ends[1]])
            close(ends[1])
            #expect(try client.reply()?["count"] as? Int == 1)
            // The read end sees end-of-file once the server's copy of the write end is closed too.
            #expect(isAtEndOfFile(ends[0], within: 5))
        }
    }

    @Test func moreDescriptorsThanAMessageMayCarryCloseTheConnection() async throws {
        try await self.withServer { socket in
            let file = try TextFile("x")
            defer { file.remove() }
            var flooding = try PassingClient(socket)
            let many = Array(repeating: file.descriptor, count: DescriptorPassing.maxPerMessage + 1)
            try flooding.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: many)
            let closed = flooding.isClosedByServer()
            #expect(closed)
            // The server closed every copy it got, and still serves others.
            #expect(file.isClosedEverywhereButHere())
            var other = try PassingClient(socket)
            try other.send(#"{"method":"org.example.fd.ReadPassed"}"#, descriptors: [file.descriptor])
            #expect(try other.reply()?["contents"] as? [String] == ["x"])
        }
    }

    @Test func moreUnclaimedDescriptorsThanTheServerHoldsCloseTheConnection() async throws {
        try await self.withServer { socket in
            let file = try TextFile("x")
            defer { file.remove() }
            var client = try PassingClient(socket)
            // The first call holds the connection while the others' descriptors pile up.
            try client.send(#"{"method":"org.example.fd.Stall","parameters":{"ms":5000}}"#, descriptors: [])
            let full = Array(repeating: file.descriptor, count: DescriptorPassing.maxPerMessage)
            for _ in 0...(DescriptorInbox.limit / full.count) {
                try client.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: full)
            }
            let closed = client.isClosedByServer()
            #expect(closed)
            #expect(file.isClosedEverywhereButHere())
        }
    }

    @Test func aHangUpCancelsTheRunningCallEvenWhileTheServerStopsReading() async throws {
        let service = TestService()
        let server = try await RunningServer.start(interfaces: [service.interface])
        try await onOwnThread {
            var client = try PassingClient(server.path)
            try client.send(#"{"method":"org.example.test.Forever","more":true}"#, descriptors: [])
            #expect(try client.reply()?["n"] as? Int == 0)
            // Calls pile up unread until the relay stops reading (its pipe full) and the socket
            // fills: a send then takes nothing.
            let call = Array(#"{"method":"org.example.test.Echo","parameters":{"text":"queued"}}"#.utf8) + [0]
            var sent = 0
            while case .sent(let count) = DescriptorPassing.send(call, descriptors: [], on: client.socket.descriptor), sent < 64 << 20 {
                sent += count
            }
            #expect(sent < 64 << 20, "the server read everything")
            client.close()
        }
        #expect(await eventually { service.foreverCancelled == 1 })
        try await server.stop()
    }

    @Test func pythonPassesTwoFilesWithSendFds() async throws {
        let server = try await RunningServer.start(interfaces: [DescriptorService().interface])
        let first = try TemporaryFile(contents: Array("from python".utf8))
        let second = try TemporaryFile(contents: Array("and another".utf8))
        defer { first.remove(); second.remove() }
        let output = try await PythonVarlink.run(["python3", "-c", Self.pythonClient, server.path, first.path, second.path])
        try await server.stop()
        #expect(output.status == 0, "python: \(output.stderr)")
        #expect(output.stdout == #"["from python", "and another"]"#)
    }

    /// A raw-socket client that sends its call with socket.send_fds, as sd-varlink sends
    /// descriptors: on the message's first byte. Its timeout only ends a hang.
    static let pythonClient = """
        import json, os, socket, sys
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(120)
        sock.connect(sys.argv[1])
        fds = [os.open(path, os.O_RDONLY) for path in sys.argv[2:]]
        call = json.dumps({"method": "org.example.fd.ReadPassed"}).encode() + b"\\0"
        sent = socket.send_fds(sock, [call], fds)
        sock.sendall(call[sent:])
        data = b""
        while not data.endswith(b"\\0"):
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("the server closed the connection")
            data += chunk
        sys.stdout.write(json.dumps(json.loads(data[:-1])["parameters"]["contents"]))
        """

    @Test func aConnectionThatHangsUpLeavesNoDescriptorBehind() async throws {
        try await self.withServer { socket in
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let client = try PassingClient(socket)
            // The first call holds the connection, so the second's descriptor waits unclaimed.
            try client.send(#"{"method":"org.example.fd.Stall","parameters":{"ms":200}}"#, descriptors: [])
            try client.send(#"{"method":"org.example.fd.CountPassed"}"#, descriptors: [ends[1]])
            close(ends[1])
            client.close()
            #expect(isAtEndOfFile(ends[0], within: 5))
        }
    }
}

/// Whether `descriptor` (a pipe's read end) reports end-of-file within `seconds`.
private func isAtEndOfFile(_ descriptor: Int32, within seconds: Int32) -> Bool {
    var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&polled, 1, seconds * 1000) == 1 else { return false }
    var byte: UInt8 = 0
    return read(descriptor, &byte, 1) == 0
}

/// A blocking client that sends calls with descriptors on their first byte, as sd-varlink does.
private struct PassingClient {
    let socket: BlockingUnixSocket
    private var decoder = VarlinkFrameDecoder(maxMessageBytes: 1 << 20)
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init(_ path: String) throws {
        self.socket = try BlockingUnixSocket.open(path: path, timeout: .seconds(60))
    }

    func close() {
        self.socket.release()
    }

    /// Sends `text` and its NUL, with `descriptors` on the first byte.
    func send(_ text: String, descriptors: [Int32]) throws {
        try self.send(Array(text.utf8) + [0], descriptors: descriptors)
    }

    func send(_ bytes: [UInt8], descriptors: [Int32]) throws {
        switch DescriptorPassing.send(bytes, descriptors: descriptors, on: self.socket.descriptor) {
        case .sent(let count):
            if count < bytes.count { try self.socket.sendAll(Array(bytes[count...])) }
        case .wouldBlock:
            throw POSIXError(.EAGAIN)
        case .failed(let code):
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// The next reply as a JSON object's "parameters", nil when the server closed the connection.
    mutating func reply() throws -> [String: Any]? {
        while true {
            if let frame = try self.decoder.nextFrame() {
                let object = try JSONSerialization.jsonObject(with: Data(frame)) as? [String: Any]
                return object?["parameters"] as? [String: Any] ?? [:]
            }
            let received = try self.buffer.withUnsafeMutableBytes { try self.socket.receive(into: $0) }
            received.descriptors.forEach { _ = Glibc.close($0) }
            guard received.count > 0 else { return nil }
            self.decoder.append(self.buffer[..<received.count])
        }
    }

    /// True when the server closes the connection without a reply.
    mutating func isClosedByServer() -> Bool {
        do {
            return try self.reply() == nil
        } catch {
            // A reset also means the server closed it.
            return true
        }
    }
}

/// A temporary file holding `text`, open read-only for passing.
private struct TextFile {
    let file: TemporaryFile
    let descriptor: Int32

    init(_ text: String) throws {
        self.file = try TemporaryFile(contents: Array(text.utf8))
        self.descriptor = open(self.file.path, O_RDONLY | O_CLOEXEC)
    }

    func remove() {
        Glibc.close(self.descriptor)
        self.file.remove()
    }

    /// Whether this test's own descriptor is the only one left open on the file, within 5 s.
    func isClosedEverywhereButHere() -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while self.file.openDescriptorCount > 1 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return self.file.openDescriptorCount == 1
    }
}
