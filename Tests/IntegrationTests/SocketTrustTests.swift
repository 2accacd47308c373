import Foundation
import PhotoTestSupport
import Testing

/// Another user who gets to the socket path first (a runtime directory in /tmp made before
/// the victim's) cannot stand in for photod: photoctl checks the folder and the server's uid,
/// and photod refuses to bind in a folder it does not own.
@Suite(.serialized) struct SocketTrustTests {
    /// Tests/Scripts/impostor_server.py, answering the call with a Status of its own.
    static let impostor = (try? String(contentsOf: Binaries.repository.appendingPathComponent(
        "Tests/Scripts/impostor_server.py"), encoding: .utf8)) ?? "raise SystemExit('impostor_server.py is missing')"
    static let impostorStatus = """
        {"version": "6.6.6-attacker", "state": "ready", "roots": [], "assets": 0, "groups": 0, "token": 0,
         "watches": 0, "problems": []}
        """

    static var canRunAsNobody: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    /// Runs the impostor as nobody in a folder of nobody's under `dir`; its output goes to files.
    static func startImpostor(in dir: TemporaryDirectory) async throws -> (StreamingProcess, socket: String) {
        let folder = dir.file("theirs")
        #expect(mkdir(folder, 0o755) == 0 && chown(folder, 65534, 65534) == 0)
        #expect(chmod(dir.path, 0o755) == 0)
        let socket = folder + "/io.photod"
        let server = try StreamingProcess("/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", impostor, socket, impostorStatus,
        ], directory: dir, name: "impostor")
        #expect(await server.wait { $0.lines.first == "listening" }, "\(server.stderr)")
        return (server, socket)
    }

    @Test(.enabled(if: canRunAsNobody)) func photoctlRefusesAServerOfAnotherUserAndSendsItNothing() async throws {
        let dir = try TemporaryDirectory()
        let (server, socket) = try await Self.startImpostor(in: dir)
        let result = try await ProcessRunner.run(Binaries.photoctl, ["--socket", socket, "status"])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("6.6.6-attacker"))
        #expect(result.stderr.contains(socket) && result.stderr.contains("uid 65534"), "\(result.stderr)")
        #expect(result.stderr.contains("--service-user"))
        await #expect(server.exitStatus() == 0)
        #expect(server.lines.last == "0", "bytes the impostor received: \(server.lines)")
    }

    @Test(.enabled(if: canRunAsNobody)) func theNamedServiceUserIsTrusted() async throws {
        let dir = try TemporaryDirectory()
        let (server, socket) = try await Self.startImpostor(in: dir)
        let result = try await ProcessRunner.run(Binaries.photoctl, ["--socket", socket, "status"],
                                           environment: ["PHOTOD_SERVICE_USER": "nobody"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("photod 6.6.6-attacker: ready"))
        await #expect(server.exitStatus() == 0)

        let unknown = try await ProcessRunner.run(Binaries.photoctl, ["--socket", socket, "--service-user", "no-such-user", "status"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no user named \"no-such-user\""), "\(unknown.stderr)")
    }

    @Test func aRuntimeDirectoryOfAnotherUserIsRefusedByPhotodAndPhotoctl() async throws {
        let daemon = try DaemonHarness()
        let runtime = daemon.dir.file("run")
        #expect(mkdir(runtime, 0o700) == 0 && chown(runtime, 65534, 65534) == 0)
        await #expect(throws: HarnessError.self) { try await daemon.start(timeout: 10) }
        #expect(daemon.log.contains("refusing the socket folder \(runtime): it belongs to uid 65534"), "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/photod"))

        var environment = daemon.environment
        environment["PHOTOD_SOCKET"] = nil
        let result = try await ProcessRunner.run(Binaries.photoctl, ["status"], environment: environment)
        #expect(result.status == 3)
        #expect(result.stderr.contains("refusing the socket folder \(runtime)"), "\(result.stderr)")
    }

    @Test func aRuntimeDirectoryOpenToOthersIsRefusedAndLeftAlone() async throws {
        let daemon = try DaemonHarness()
        let runtime = daemon.dir.file("run")
        #expect(mkdir(runtime, 0o777) == 0 && chmod(runtime, 0o777) == 0)
        await #expect(throws: HarnessError.self) { try await daemon.start(timeout: 10) }
        #expect(daemon.log.contains("its mode is 0777"), "\(daemon.log)")
        let attributes = try FileManager.default.attributesOfItem(atPath: runtime)
        #expect((attributes[.posixPermissions] as? Int) == 0o777)
    }
}
