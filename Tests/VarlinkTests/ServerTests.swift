import Foundation
import NIOCore
import PhotoTestSupport
import Testing

@testable import Varlink

private typealias Text = TestService.Text

/// Starts a server with the test interface, runs `body`, stops the server.
private func withServer(
    configuration: VarlinkServer.Configuration = .init(),
    _ body: (RunningServer, TestService) async throws -> Void
) async throws {
    let service = TestService()
    let server = try await RunningServer.start(interfaces: [service.interface], configuration: configuration)
    do {
        try await body(server, service)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}

@Suite("Server end to end", .timeLimit(.minutes(1)))
struct ServerTests {
    @Test("a call gets its reply")
    func callAndReply() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            let reply = try await client.call("org.example.test.Echo", Text(text: "hello ✓"), returning: Text.self)
            #expect(reply == Text(text: "hello ✓"))
            #expect(try await client.call("org.example.test.Echo", Text(text: "again"), returning: Text.self).text == "again")
            await client.close()
        }
    }

    @Test("an error reply arrives as VarlinkError and the connection stays usable")
    func errorReply() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            let error = await #expect(throws: VarlinkError.self) {
                try await client.call("org.example.test.Fail", TestService.Reason(reason: "because"), returning: Empty.self)
            }
            #expect(error?.name == "org.example.test.Failure")
            #expect(error?.parameters(TestService.Reason.self) == TestService.Reason(reason: "because"))
            #expect(try await client.call("org.example.test.Echo", Text(text: "x"), returning: Text.self).text == "x")
            await client.close()
        }
    }

    @Test("unknown interfaces, unknown methods and bad parameters get standard errors, not a close")
    func standardErrors() async throws {
        try await withServer { server, service in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            await #expect(throws: VarlinkError.interfaceNotFound("org.example.nope")) {
                try await client.call("org.example.nope.Echo", Empty(), returning: Empty.self)
            }
            await #expect(throws: VarlinkError.interfaceNotFound("")) {
                try await client.call("NoDots", Empty(), returning: Empty.self)
            }
            await #expect(throws: VarlinkError.methodNotFound("org.example.test.Nope")) {
                try await client.call("org.example.test.Nope", Empty(), returning: Empty.self)
            }
            await #expect(throws: VarlinkError.methodNotImplemented("org.example.test.Later")) {
                try await client.call("org.example.test.Later", Empty(), returning: Empty.self)
            }
            await #expect(throws: VarlinkError.invalidParameter("text")) {
                try await client.call("org.example.test.Echo", ["text": 5], returning: Text.self)
            }
            await #expect(throws: VarlinkError.methodNotFound("org.varlink.service.Nope")) {
                try await client.call("org.varlink.service.Nope", Empty(), returning: Empty.self)
            }
            #expect(try await client.call("org.example.test.Echo", Text(text: "still here"), returning: Text.self).text == "still here")
            // Unknown methods never reach the handler.
            #expect(service.calls == 3)
            await client.close()
        }
    }

    @Test("a handler failing unexpectedly answers InternalError, is logged, and keeps the connection")
    func unexpectedHandlerError() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            await #expect(throws: VarlinkError.internalError()) {
                try await client.call("org.example.test.Crash", Empty(), returning: Empty.self)
            }
            await #expect(throws: VarlinkError("org.varlink.service.InternalError")) {
                try await client.call("org.example.test.Silent", Empty(), returning: Empty.self)
            }
            #expect(try await client.call("org.example.test.Echo", Text(text: "ok"), returning: Text.self).text == "ok")
            let errors = server.log.all.filter { $0.level == .error }
            #expect(errors.contains { $0.message.contains("handler failed") && $0.metadata["varlink.method"] == "org.example.test.Crash" })
            #expect(errors.contains { $0.message.contains("without a final reply") })
            await client.close()
        }
    }

    @Test("a oneway call gets no reply and the next call's reply still arrives")
    func oneway() async throws {
        try await withServer { server, service in
            try await withRawConnection(server.path) { reader, writer in
                try await writer.send(#"{"method":"org.example.test.Notify","parameters":{"text":"first"},"oneway":true}"#)
                try await writer.send(#"{"method":"org.example.test.Echo","parameters":{"text":"second"}}"#)
                let reply = try #require(try await reader.nextObject())
                #expect((reply["parameters"] as? [String: Any])?["text"] as? String == "second")
                #expect(reply["continues"] == nil)
                #expect(reply["error"] == nil)
            }
            #expect(service.notes == ["first"])
        }
    }

    @Test("a more call streams replies with continues until the last")
    func streaming() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            var values: [Int] = []
            for try await item in client.stream("org.example.test.Count", TestService.Count(to: 4), returning: TestService.Count.self) {
                values.append(item.n ?? -1)
            }
            #expect(values == [1, 2, 3, 4])
            // The client is free again once the stream ended.
            #expect(try await client.call("org.example.test.Echo", Text(text: "after"), returning: Text.self).text == "after")
            await client.close()

            try await withRawConnection(server.path) { reader, writer in
                try await writer.send(#"{"method":"org.example.test.Count","parameters":{"to":3},"more":true}"#)
                var flags: [Bool] = []
                for _ in 0..<3 {
                    let reply = try #require(try await reader.nextObject())
                    flags.append(reply["continues"] as? Bool ?? false)
                }
                #expect(flags == [true, true, false])
            }
        }
    }

    @Test("a streaming handler called without more answers ExpectedMore")
    func expectedMore() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            await #expect(throws: VarlinkError.expectedMore()) {
                try await client.call("org.example.test.Count", TestService.Count(to: 3), returning: TestService.Count.self)
            }
            await client.close()
        }
    }

    @Test("pipelined calls are answered in call order")
    func pipelined() async throws {
        try await withServer { server, _ in
            try await withRawConnection(server.path) { reader, writer in
                let calls = [
                    #"{"method":"org.example.test.Sleep","parameters":{"ms":80}}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"text":"b"}}"#,
                    #"{"method":"org.example.nope.X"}"#,
                    #"{"method":"org.example.test.Sleep","parameters":{"ms":1}}"#,
                    #"{"method":"org.example.test.Count","parameters":{"to":2},"more":true}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"text":"f"}}"#,
                ]
                try await writer.sendBytes(calls.flatMap { Array($0.utf8) + [0] })
                var seen: [String] = []
                for _ in 0..<7 {
                    let reply = try #require(try await reader.nextObject())
                    let parameters = reply["parameters"] as? [String: Any] ?? [:]
                    if let error = reply["error"] as? String {
                        seen.append(error)
                    } else if let text = parameters["text"] as? String {
                        seen.append(text)
                    } else if let ms = parameters["ms"] as? Int {
                        seen.append("ms\(ms)")
                    } else if let n = parameters["n"] as? Int {
                        seen.append("n\(n)")
                    }
                }
                #expect(seen == ["ms80", "b", "org.varlink.service.InterfaceNotFound", "ms1", "n1", "n2", "f"])
            }
        }
    }

    @Test("a connection sending a frame without a NUL beyond the limit is closed; others carry on")
    func oversizeMessage() async throws {
        var configuration = VarlinkServer.Configuration()
        configuration.maxMessageBytes = 4096
        try await withServer(configuration: configuration) { server, _ in
            let bystander = try await VarlinkClient.connect(unixSocketPath: server.path)
            let closed = try await withRawConnection(server.path) { reader, writer in
                try await writer.sendBytes(Array(#"{"method":"org.example.test.Echo","parameters":{"text":""#.utf8))
                try await writer.sendBytes([UInt8](repeating: UInt8(ascii: "a"), count: 5000))
                return await reader.isClosedByServer()
            }
            #expect(closed)
            // Exactly at the limit is still served.
            let prefix = #"{"method":"org.example.test.Echo","parameters":{"text":""#
            let text = String(repeating: "b", count: 4096 - prefix.utf8.count - 3)
            let atLimit = try await withRawConnection(server.path) { reader, writer in
                try await writer.send(prefix + text + #""}}"#)
                return try await reader.nextObject()
            }
            #expect((atLimit?["parameters"] as? [String: Any])?["text"] as? String == text)
            #expect(try await bystander.call("org.example.test.Echo", Text(text: "fine"), returning: Text.self).text == "fine")
            #expect(await eventually { server.log.all.contains { $0.level == .warning && $0.metadata["reason"]?.contains("longer than 4096") == true } })
            await bystander.close()
        }
    }

    @Test("protocol violations close the connection with a logged reason", arguments: [
        ("{not json", "not valid UTF-8 JSON"),
        ("[1,2,3]", "not a JSON object"),
        (#"{"parameters":{}}"#, "no string"),
        (#"{"method":"org.example.test.Echo","more":true,"oneway":true}"#, "more than one of"),
    ])
    func violations(_ message: String, _ reason: String) async throws {
        try await withServer { server, _ in
            let closed = try await withRawConnection(server.path) { reader, writer in
                try await writer.send(message)
                return await reader.isClosedByServer()
            }
            #expect(closed)
            // The server logs after the close reaches the client (executeThenClose closes first),
            // so the line may arrive a moment after the client sees the close.
            #expect(await eventually { server.log.all.contains { $0.level == .warning && $0.metadata["reason"]?.contains(reason) == true } })
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            #expect(try await client.call("org.example.test.Echo", Text(text: "next"), returning: Text.self).text == "next")
            await client.close()
        }
    }

    @Test("calls before a violation in the same read are still answered")
    func callsBeforeViolation() async throws {
        try await withServer { server, _ in
            try await withRawConnection(server.path) { reader, writer in
                try await writer.sendBytes(Array(#"{"method":"org.example.test.Echo","parameters":{"text":"ok"}}"#.utf8) + [0] + Array("42".utf8) + [0])
                let first = try await reader.nextObject()
                #expect((first?["parameters"] as? [String: Any])?["text"] as? String == "ok")
                #expect(await reader.isClosedByServer())
            }
        }
    }

    @Test("GetInfo lists the interfaces; GetInterfaceDescription returns their text")
    func serviceInterface() async throws {
        struct Info: Decodable, Sendable {
            let vendor: String, product: String, version: String, url: String, interfaces: [String]
        }
        struct Description: Decodable, Sendable { let description: String }
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            let info = try await client.call("org.varlink.service.GetInfo", Empty(), returning: Info.self)
            #expect(info.interfaces == ["org.varlink.service", "org.example.test"])
            #expect(info.product == "varlink-tests")
            #expect(info.vendor == "photod project")
            let text = try await client.call(
                "org.varlink.service.GetInterfaceDescription", ["interface": "org.example.test"], returning: Description.self
            )
            #expect(text.description == TestService.idl)
            let own = try await client.call(
                "org.varlink.service.GetInterfaceDescription", ["interface": "org.varlink.service"], returning: Description.self
            )
            #expect(own.description.contains("interface org.varlink.service"))
            #expect(own.description.contains("error ExpectedMore ()"))
            await #expect(throws: VarlinkError.interfaceNotFound("org.example.nope")) {
                try await client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.example.nope"], returning: Description.self)
            }
            await #expect(throws: VarlinkError.invalidParameter("interface")) {
                try await client.call("org.varlink.service.GetInterfaceDescription", Empty(), returning: Description.self)
            }
            await client.close()
        }
    }

    @Test("the peer's pid, uid and gid come from the kernel")
    func peerCredentials() async throws {
        try await withServer { server, _ in
            let client = try await VarlinkClient.connect(unixSocketPath: server.path)
            let peer = try await client.call("org.example.test.Peer", Empty(), returning: TestService.Peer.self)
            #expect(peer == TestService.Peer(pid: getpid(), uid: getuid(), gid: getgid()))
            await client.close()
        }
    }
}
