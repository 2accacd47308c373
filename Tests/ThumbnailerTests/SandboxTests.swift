import Foundation
import Glibc
import PhotoTestSupport
import Testing
import ThumbnailProtocol

@Suite struct SandboxTests {
    /// What an exploited decoder would try, attempted from inside the sandboxed worker by its probe mode.
    @Test func fromInsideTheWorkerEveryEscapeIsRefused() async throws {
        let folder = try TemporaryDirectory()
        let key = try folder.write("id_rsa", Array("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8))
        let index = try folder.write("index.sqlite", Array("SQLite format 3\u{0}".utf8))
        // A process of the test's own the worker must not be able to signal or renice.
        var other: pid_t = 0
        let argv = [strdup("sleep"), strdup("60"), nil]
        defer { argv.forEach { free($0) } }
        // Required: with no child, `other` stays 0, and kill(0, SIGKILL) below would end the
        // whole test run (every process in its group).
        try #require(posix_spawn(&other, "/bin/sleep", nil, nil, argv, environ) == 0 && other > 0)
        defer {
            kill(other, SIGKILL)
            var status: Int32 = 0
            waitpid(other, &status, 0)
        }
        let me = getpid()
        let niceBefore = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(other))
        let worker = try WorkerProcess(in: folder, arguments: [
            "--sandbox-probe", "open=\(key)", "open=\(index)", "open=/proc/\(me)/mem", "open=/proc/\(me)/environ",
            "kill=\(me)", "kill!=\(other)", "renice=\(me)", "renice=\(other)",
        ])
        let hello = try await worker.receive().message
        let probe = try #require(hello.split(separator: ";").last(where: { $0.hasPrefix(" probe ") }), "\(hello)")
        var outcomes: [String: String] = [:]
        for pair in probe.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { outcomes[parts[0]] = parts[1] }
        }
        // affinity: refused so that dav1d decodes on one thread (SeccompFilter.allowed).
        let attempts = ["execve", "socket", "fork", "killgroup", "undump", "setrlimit", "affinity",
                        "open#0", "create#0", "open#1", "create#1", "open#2", "open#3",
                        "kill0#4", "kill0#5", "sigkill#5", "setpriority#6", "setpriority#7"]
        for name in attempts {
            #expect(["EPERM", "EACCES"].contains(outcomes[name]), "\(name) was \(outcomes[name] ?? "not tried"): \(hello)")
        }
        #expect(outcomes["dumpable"] == "0", "\(hello)")
        #expect(outcomes["cpu"] == "120", "\(hello)")
        #expect(!probe.contains("=allowed"), "\(hello)")
        // Nothing happened outside: the sleeper lives at its priority, and no file was made.
        var status: Int32 = 0
        #expect(kill(other, 0) == 0 && waitpid(other, &status, WNOHANG) == 0)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(other)) == niceBefore)
        #expect(!FileManager.default.fileExists(atPath: key + ".new"))
        // Landlock is in force wherever the kernel has it.
        let abi = try await Pillow.run("""
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            print(libc.syscall(444, None, 0, 1))
            """).trimmingCharacters(in: .whitespacesAndNewlines)
        if let abi = Int(abi), abi >= 1 {
            #expect(hello.contains("; landlock abi \(abi);"), "\(hello)")
        } else {
            #expect(hello.contains("; landlock unavailable ("), "\(hello)")
        }
        // The refusals did not take the worker down: it still renders.
        let image = folder.file("a.png")
        try await Pillow.gradient(image, width: 64, height: 64, format: "PNG")
        let response = try await worker.thumbnail(ThumbnailRequest(id: 1, width: 32, height: 32), file: image)
        #expect((response.status, response.width) == (.ok, 32), "\(response.message)")
        #expect(worker.stderrText.isEmpty, "stderr: \(worker.stderrText)")
    }

    @Test func aLargeJPEGStaysUnder150MiB() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("large.jpg")
        try await Pillow.gradient(path, width: 6000, height: 4000, format: "JPEG")
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        for fit in [ThumbnailFit.inside, .fill] {
            let request = ThumbnailRequest(id: 1, fit: fit, wantsCacheCopy: true, width: 256, height: 256)
            let response = try await worker.thumbnail(request, file: path)
            #expect(response.status == .ok, "\(response.message)")
            #expect((response.sourceWidth, response.sourceHeight) == (6000, 4000))
            #expect(response.width == 256 && response.height == (fit == .fill ? 256 : 171))
            #expect(response.peakRSSKiB < 150 * 1024, "peak \(response.peakRSSKiB) KiB")
        }
    }

    @Test func anAddressSpaceLimitTurnsADecodeBombIntoAFailure() async throws {
        let folder = try TemporaryDirectory()
        // A PNG decodes whole; 8000×8000 RGB is 192 MB of pixels, more than a 128 MiB address space allows.
        // (At 160 MiB, with only the HEIF and JPEG XL modules mapped, the decode now gets as far as
        // starting a thread before the space runs out: also a refusal, but not this one.)
        let path = folder.file("bomb.png")
        try await Pillow.run("""
            import sys
            from PIL import Image
            Image.new('RGB', (8000, 8000), (1, 2, 3)).save(sys.argv[1], 'PNG')
            """, [path])
        let request = ThumbnailRequest(id: 1, fit: .fill, width: 2048, height: 2048)
        let roomy = try WorkerProcess(in: folder)
        _ = try await roomy.receive()
        let unlimited = try await roomy.thumbnail(request, file: path)
        #expect(unlimited.status == .ok, "with the default limit: \(unlimited.message)")

        let tight = try WorkerProcess(in: folder, environment: ["PHOTOD_THUMBNAILER_MEMORY_MB": "128"])
        _ = try await tight.receive()
        let refused = try await tight.thumbnail(request, file: path)
        #expect(refused.status == .undecodable)
        #expect(refused.message.contains("out of memory"), "\(refused.message)")
        // The answer comes first; then the worker, half-broken by the failed allocations, leaves.
        await #expect(tight.closeAndWait() == 75)
    }
}
