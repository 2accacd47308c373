import Foundation
import Testing

import PhotoTestSupport
import Varlink

/// A client checks who serves the socket (SO_PEERCRED) before it sends anything: another user
/// who got to the socket path first must not receive a single call.
@Suite(.serialized) struct UntrustedServerTests {
    /// Tests/Scripts/impostor_server.py, passed to python with -c so that nobody need not read the checkout.
    static var server: String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/impostor_server.py")
        return (try? String(contentsOf: script, encoding: .utf8)) ?? "raise SystemExit('impostor_server.py is missing')"
    }

    /// A server run as `nobody` (uid 65534) in a folder it owns; its output lines.
    final class ForeignServer {
        let folder: String
        let socket: String
        let process: TestChild

        /// `reply`: the parameters (JSON) the server answers the one call with.
        init(reply: String? = nil) throws {
            folder = "/tmp/us-\(getpid())-\(UUID().uuidString.prefix(8))"
            socket = folder + "/io.photod"
            guard mkdir(folder, 0o755) == 0, chown(folder, 65534, 65534) == 0 else { throw POSIXError(.EPERM) }
            process = try TestChild("/usr/bin/setpriv",
                                    ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                     UntrustedServerTests.server, socket] + (reply.map { [$0] } ?? []),
                                    output: .pipe)
        }

        /// The next line the server prints, read without holding one of the concurrency
        /// threads the client under test needs (two tests blocked in a read here once starved
        /// both, until the server's 20 s timeout failed them).
        func line() async -> String {
            await process.readOutputLine()
        }

        deinit {
            // The child is killed as `process` goes.
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    static var canRunAsNobody: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    @Test(.enabled(if: canRunAsNobody)) func aServerOfAnotherUserIsRefusedBeforeAnyByteIsSent() async throws {
        let server = try ForeignServer()
        #expect(await server.line() == "listening")
        let error = await #expect(throws: VarlinkUntrustedServerError.self) {
            _ = try await VarlinkClient.connect(unixSocketPath: server.socket)
        }
        #expect(error?.serverUserID == 65534)
        #expect(error?.description.contains(server.socket) == true, "\(String(describing: error))")
        #expect(error?.description.contains("uid 65534") == true)
        #expect(await server.line() == "0")
    }

    @Test(.enabled(if: canRunAsNobody)) func theDescriptorClientRefusesAServerOfAnotherUserBeforeSending() async throws {
        let server = try ForeignServer()
        #expect(await server.line() == "listening")
        let error = #expect(throws: VarlinkUntrustedServerError.self) {
            _ = try VarlinkDescriptorClient.connect(unixSocketPath: server.socket)
        }
        #expect(error?.serverUserID == 65534)
        #expect(error?.trusted == [geteuid()])
        #expect(await server.line() == "0")
    }

    @Test(.enabled(if: canRunAsNobody)) func theDescriptorClientAcceptsTheNamedServiceUser() async throws {
        let server = try ForeignServer(reply: #"{"answer":42}"#)
        #expect(await server.line() == "listening")
        let nobody = try #require(TrustedServer.userID(named: "nobody"))
        let client = try VarlinkDescriptorClient.connect(unixSocketPath: server.socket, trusted: .sameUser(or: nobody))
        let (reply, descriptors) = try client.call("org.example.Ask", [String: String](), returning: [String: Int].self)
        #expect(reply == ["answer": 42])
        #expect(descriptors.count == 0)
        #expect(Int(await server.line()) ?? 0 > 0)
    }

    @Test(.enabled(if: canRunAsNobody)) func theNamedServiceUserIsAccepted() async throws {
        let server = try ForeignServer()
        #expect(await server.line() == "listening")
        let nobody = try #require(TrustedServer.userID(named: "nobody"))
        #expect(nobody == 65534)
        let client = try await VarlinkClient.connect(unixSocketPath: server.socket, trusted: .sameUser(or: nobody))
        await client.close()
        #expect(await server.line() == "0")
    }
}
