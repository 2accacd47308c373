import Foundation
import PhotoTestSupport
import Testing

/// The real photod against clients that hold connections they do not use.
@Suite(.serialized) struct HostileClientTests {
    /// A oneway RequestAuthorization, then nothing until it is killed: the app hangs up without
    /// reading, as a script killed mid-request would.
    static let onewayRequest = """
        import socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        s.sendall(b'{"method":"io.photod.Authorization.RequestAuthorization",'
                  b'"parameters":{"reason":"oneway and gone","label":"Hang-up"},"oneway":true}\\0')
        print("sent", flush=True)
        time.sleep(3600)
        """

    /// A plain connected Unix socket that never sends a byte.
    private func idleConnection(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
        return descriptor
    }

    @Test func anIdleFloodOfAppsDoesNotLockTheOwnerOut() async throws {
        // Not trusted: this test process is an app, and photoctl beside photod is the owner.
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<100 {
            flood.append(try idleConnection(daemon.socket))
        }
        #expect(await daemon.logContains("varlink connection limit reached"), "\(daemon.log)")
        for _ in 0..<3 {
            let status = try await daemon.photoctl(["status"])
            #expect(status.status == 0, "\(status.stderr)")
        }
    }

    @Test func aOnewayRequestEndsWhenItsAppHangsUp() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let script = try daemon.dir.write("oneway.py", Array(Self.onewayRequest.utf8))
        let app = try StreamingProcess("/usr/bin/env", ["python3", script, daemon.socket], directory: daemon.dir, name: "oneway")
        await #expect(app.wait { $0.lines.contains("sent") }, "\(app.stderr)")
        let pending = { () async -> Bool in
            let apps = (try? await daemon.photoctlJSON(["permissions"]))?["apps"] as? [[String: Any]] ?? []
            return apps.contains { $0["pending"] as? Bool == true }
        }
        #expect(await eventually(within: 10, pending), "the request never showed as pending: \(daemon.log)")
        await app.kill()
        #expect(await eventually(within: 10) { await !pending() }, "the request outlived its app: \(daemon.log)")
    }
}
