import Foundation
import Testing

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
        let process = Process()
        let output = Pipe()

        /// `reply`: the parameters (JSON) the server answers the one call with.
        init(reply: String? = nil) throws {
            folder = "/tmp/us-\(getpid())-\(UUID().uuidString.prefix(8))"
            socket = folder + "/io.photod"
            guard mkdir(folder, 0o755) == 0, chown(folder, 65534, 65534) == 0 else { throw POSIXError(.EPERM) }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                 UntrustedServerTests.server, socket] + (reply.map { [$0] } ?? [])
            process.standardOutput = output
            try process.run()
        }

        /// The next line the server prints.
        func line() -> String {
            var bytes: [UInt8] = []
            while let byte = try? output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        deinit {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    static var canRunAsNobody: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    @Test(.enabled(if: canRunAsNobody)) func aServerOfAnotherUserIsRefusedBeforeAnyByteIsSent() async throws {
        let server = try ForeignServer()
        #expect(server.line() == "listening")
        let error = await #expect(throws: VarlinkUntrustedServerError.self) {
            _ = try await VarlinkClient.connect(unixSocketPath: server.socket)
        }
        #expect(error?.serverUserID == 65534)
        #expect(error?.description.contains(server.socket) == true, "\(String(describing: error))")
        #expect(error?.description.contains("uid 65534") == true)
        #expect(server.line() == "0")
    }

    @Test(.enabled(if: canRunAsNobody)) func theDescriptorClientRefusesAServerOfAnotherUserBeforeSending() async throws {
        let server = try ForeignServer()
        #expect(server.line() == "listening")
        let error = #expect(throws: VarlinkUntrustedServerError.self) {
            _ = try VarlinkDescriptorClient.connect(unixSocketPath: server.socket)
        }
        #expect(error?.serverUserID == 65534)
        #expect(error?.trusted == [geteuid()])
        #expect(server.line() == "0")
    }

    @Test(.enabled(if: canRunAsNobody)) func theDescriptorClientAcceptsTheNamedServiceUser() async throws {
        let server = try ForeignServer(reply: #"{"answer":42}"#)
        #expect(server.line() == "listening")
        let nobody = try #require(TrustedServer.userID(named: "nobody"))
        let client = try VarlinkDescriptorClient.connect(unixSocketPath: server.socket, trusted: .sameUser(or: nobody))
        let (reply, descriptors) = try client.call("org.example.Ask", [String: String](), returning: [String: Int].self)
        #expect(reply == ["answer": 42])
        #expect(descriptors.count == 0)
        #expect(Int(server.line()) ?? 0 > 0)
    }

    @Test(.enabled(if: canRunAsNobody)) func theNamedServiceUserIsAccepted() async throws {
        let server = try ForeignServer()
        #expect(server.line() == "listening")
        let nobody = try #require(TrustedServer.userID(named: "nobody"))
        #expect(nobody == 65534)
        let client = try await VarlinkClient.connect(unixSocketPath: server.socket, trusted: .sameUser(or: nobody))
        await client.close()
        #expect(server.line() == "0")
    }
}
