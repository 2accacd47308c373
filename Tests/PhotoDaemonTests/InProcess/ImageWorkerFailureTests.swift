import FileSystem
import Foundation
import Glibc
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import ThumbnailCache
import Varlink
@testable import PhotoDaemon

/// A worker that dies or hangs fails that one request, with a clear error and a fail/ marker;
/// the next request gets a fresh worker and succeeds.
@Suite(.timeLimit(.minutes(2)))
struct ImageWorkerFailureTests {
    /// A stand-in worker: the first process it starts says hello like the real one, records its
    /// pid and then never answers; every later one is the real worker (exec, same fd 3).
    struct HangingOnce {
        let script: String
        let marker: String
        let pidFile: String

        init(in dir: TemporaryDirectory) throws {
            script = dir.file("hanging-worker")
            marker = dir.file("hang-next")
            pidFile = dir.file("hanging.pid")
            let real = Binaries.productsFolder.appendingPathComponent("photod-thumbnailer").path
            try dir.write("hanging-worker", Array("""
                #!/usr/bin/python3
                import os, struct, sys, time
                if not os.path.exists("\(marker)"):
                    os.execv("\(real)", ["\(real)"] + sys.argv[1:])
                os.remove("\(marker)")
                text = b"hanging test worker"
                body = struct.pack("<QBBBBIIIIQII", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, len(text), 0) + text
                os.write(3, b"PTW1" + struct.pack("<I", len(body)) + body)
                with open("\(pidFile)", "w") as f:
                    f.write(str(os.getpid()))
                while True:
                    time.sleep(1)

                """.utf8))
            chmod(script, 0o755)
            try dir.write("hang-next", [])
        }

        /// The hanging process's pid, once it has started.
        func pid() async -> Int32? {
            for _ in 0..<500 {
                if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text) { return pid }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }
    }

    static func reason(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
        } catch PhotoClientError.daemon(let error) where error.name == LibraryInterface.Error.imageUnavailable {
            return error.parameters(ImageUnavailableError.self)?.reason
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func aWorkerKilledInTheMiddleFailsThatRequestAndTheNextOneSucceeds() async throws {
        let dir = try TemporaryDirectory()
        let worker = try HangingOnce(in: dir)
        try await TestDaemon.withDaemon({ $0.thumbnails.worker = worker.script; $0.thumbnails.workers = 1 }, prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/a.png"), width: 300, height: 200, format: "PNG")
        }) { daemon in
            let client = try await daemon.client()
            let id = try await ImageRequestTests.id(of: daemon, client, "a.png")
            async let failed = Self.reason {
                _ = try await client.requestImage(RequestImageParameters(id: id, width: 100, height: 100))
            }
            let pid = try #require(await worker.pid())
            kill(pid, SIGKILL)
            let reason = await failed
            #expect(reason?.contains("killed by signal 9") == true, "\(reason ?? "no error")")

            let second = try await daemon.client()
            let reply = try await second.requestImage(RequestImageParameters(id: id, width: 100, height: 100))
            #expect(reply.source == .decoded && reply.width == 100 && reply.height == 67)
            #expect(try await second.status().thumbnails?.restarts == 1)
            await client.close()
            await second.close()
        }
    }

    @Test func aWorkerPastTheTimeLimitIsKilledAndTheFileMarked() async throws {
        let dir = try TemporaryDirectory()
        let worker = try HangingOnce(in: dir)
        try await TestDaemon.withDaemon({ $0.thumbnails.worker = worker.script; $0.thumbnails.timeout = 1 }, prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/slow.png"), width: 300, height: 200, format: "PNG")
            try await PillowFixture.write(daemon.dir.file("library/fine.png"), width: 300, height: 200, format: "PNG")
        }) { daemon in
            let client = try await daemon.client()
            let slow = try await ImageRequestTests.id(of: daemon, client, "slow.png")
            let fine = try await ImageRequestTests.id(of: daemon, client, "fine.png")
            let started = ContinuousClock.now
            let reason = await Self.reason {
                _ = try await client.requestImage(RequestImageParameters(id: slow, width: 128, height: 128))
            }
            #expect(reason?.contains("longer than 1 s") == true, "\(reason ?? "no error")")
            #expect(ContinuousClock.now - started < .seconds(60))
            let pid = try #require(await worker.pid())
            // The hanging process is gone (killed and reaped), not left behind.
            #expect(kill(pid, 0) == -1 && errno == ESRCH)
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            #expect(cache.isMarkedFailed(path: PathBytes(daemon.library + "/slow.png"),
                                         mtime: try Self.mtime(daemon.library + "/slow.png")))
            let reply = try await client.requestImage(RequestImageParameters(id: fine, width: 128, height: 128))
            #expect(reply.width == 128 && reply.height == 85)
            await client.close()
        }
    }

    static func mtime(_ path: String) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return Int64(((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970)
    }
}
