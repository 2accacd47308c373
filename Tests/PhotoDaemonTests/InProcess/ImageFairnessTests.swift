import Foundation
import Glibc
import Logging
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// The real image workers under one app's flood: the owner's request is served before the
/// flood's queued ones, however many the app sent first.
@Suite(.timeLimit(.minutes(2)))
struct ImageFairnessTests {
    /// The app's images made so far, in order.
    actor Finished {
        var names: [String] = []
        func add(_ name: String) { names.append(name) }
    }

    @Test func theOwnersRequestOvertakesAnAppsQueuedFlood() async throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("noise.png", NoisePNG.make(width: 1200, height: 900))
        let descriptor = open(dir.file("noise.png"), O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let worker = Binaries.productsFolder.appendingPathComponent("photod-thumbnailer").path
        let pool = ThumbnailerPool(launch: .init(executable: .success(worker), timeout: 60), maxWorkers: 1,
                                   logger: Logger(label: "test"))
        let finished = Finished()
        let job = ImageJob(mode: .full, width: 1024, height: 1024, fill: false, format: .jpeg, cacheCopy: false)
        let flood = 6
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<flood {
            tasks.append(Task {
                _ = try await pool.make(job, fileDescriptor: descriptor, for: .app("flood"))
                await finished.add("app\(index)")
            })
        }
        // One is being made, the rest wait: then the owner asks.
        while await pool.waitingCount < flood - 1 { try await Task.sleep(for: .milliseconds(1)) }
        _ = try await pool.make(job, fileDescriptor: descriptor, for: .owner)
        let before = await finished.names.count
        for task in tasks { try await task.value }
        await pool.shutdown()
        #expect(await finished.names.count == flood)
        // FIFO would serve all six of the app's first; the one under way (and, at worst, one
        // more that started between the check and the owner's request) may finish first.
        #expect(before <= 2, "\(before) of the app's images were made before the owner's")
    }
}
