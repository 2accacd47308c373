import Foundation
import Glibc
import PhotoTestSupport
import Testing

/// An app's queries run on photod threads that yield the processor to the owner's: a thread that
/// served an app's search runs at nice 10, photod's main thread as it was started.
struct AppPriorityTests {
    /// The nice value of each of `pid`'s threads, by thread id.
    static func threadNices(of pid: Int32) throws -> [Int32: Int] {
        var nices: [Int32: Int] = [:]
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            guard let tid = Int32(task),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 16, let nice = Int(fields[16]) { nices[tid] = nice }
        }
        return nices
    }

    @Test func threadsThatServedAnAppsSearchRunBelowTheOwners() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", JPEGFixture.make(exif: ExifFixture(description: "Beach day")))
        try await daemon.start()
        let pid = try #require(daemon.pid)
        let ours = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctlJSON(["permissions", "allow", try app.appID])
        for _ in 0..<4 {
            await #expect(try app.error(of: "io.photod.Library.Search", #"{"text": "beach"}"#) == nil)
        }
        let nices = try Self.threadNices(of: pid)
        #expect(nices[pid] == ours, "photod's main thread: \(nices)")
        #expect(nices.values.contains(max(ours, 10)), "a shared reader at nice 10: \(nices)")
        // The owner is still answered, and from a thread of its own.
        await #expect(try daemon.photoctl(["find", "beach"]).status == 0)
    }
}
