import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// OpenOriginal to clients outside the project: a raw-socket Python client receiving the
/// descriptor with `socket.recv_fds`, as a sandboxed app would, and the reference varlink CLI,
/// which cannot receive descriptors.
@Suite(.serialized)
struct OpenOriginalPythonTests {
    static let receiver = """
        import fcntl, json, os, socket, sys
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(sys.argv[1])
        call = {"method": "io.photod.Library.OpenOriginal", "parameters": {"id": sys.argv[2], "acceptFileDescriptors": True}}
        sock.sendall(json.dumps(call).encode() + b"\\0")
        data, fds = b"", []
        while not data.endswith(b"\\0"):
            chunk, received, flags, _ = socket.recv_fds(sock, 1 << 16, 4)
            if not chunk:
                break
            data += chunk
            fds += received
        reply = json.loads(data[:-1])
        out = {"reply": reply, "fds": len(fds)}
        if fds:
            fd = fds[reply["parameters"]["fileDescriptor"]]
            content = b""
            while True:
                block = os.read(fd, 1 << 16)
                if not block:
                    break
                content += block
            out["content"] = content.hex()
            out["readOnly"] = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
        print(json.dumps(out))
        """

    @Test func aRawPythonClientReceivesTheOriginalsDescriptorAndReadsItsBytes() async throws {
        let daemon = try DaemonHarness()
        let original = JPEGFixture.make(exif: ExifFixture(description: "Beach"), width: 64, height: 48)
            + Array(repeating: 0x5A, count: 200_000)
        let path = try daemon.add("trip/beach photo.jpg", original)
        try await daemon.start()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let id = try #require(try await client.allAssets(group: nil).first?.id)
        await client.close()

        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", Self.receiver, daemon.socket, id])
        let output = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout) \(result.stderr)")
        #expect(output["fds"] as? Int == 1)
        let reply = try #require((output["reply"] as? [String: Any])?["parameters"] as? [String: Any], "\(output)")
        #expect(reply["name"] as? String == "beach photo.jpg")
        #expect(reply["size"] as? Int == original.count)
        #expect(reply["format"] as? String == "jpeg")
        let hex = try #require(output["content"] as? String)
        #expect(hex == original.map { String(format: "%02x", $0) }.joined())
        #expect(output["readOnly"] as? Bool == true, "the descriptor is read-only")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theReferenceVarlinkClientWhichCannotReceiveDescriptorsIsToldToUseRequestImage() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", JPEGFixture.make(exif: ExifFixture(description: "A")))
        try await daemon.start()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let id = try #require(try await client.allAssets(group: nil).first?.id)
        await client.close()
        // The CLI exits 0 even on a varlink error; the error is on stderr.
        let result = try await ProcessRunner.run("/usr/bin/env", [
            "python3", "-m", "varlink.cli", "call", "unix:\(daemon.socket)/io.photod.Library.OpenOriginal",
            "{\"id\": \"\(id)\"}",
        ])
        let said = result.stdout + result.stderr
        #expect(said.contains("io.photod.Library.FileDescriptorsRequired"), "\(said)")
        #expect(said.contains("RequestImage"), "\(said)")
    }
}
