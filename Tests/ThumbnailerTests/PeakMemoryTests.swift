import PhotoTestSupport
import Testing
@testable import Thumbnailer

/// The worker's own peak, read from /proc/self/status: its ru_maxrss is no use, since after
/// photod's vfork-style spawn it starts from photod's peak.
struct PeakMemoryTests {
    @Test func theNumberAfterTheKernelsTabAndSpacesIsRead() {
        let status = "Name:\tphotod-thumbnai\nVmPeak:\t  812344 kB\nVmHWM:\t   42816 kB\nVmRSS:\t   42724 kB\n"
        #expect(PeakMemory.field("VmHWM:", in: status) == 42816)
        #expect(PeakMemory.field("VmRSS:", in: status) == 42724)
        #expect(PeakMemory.field("VmHWM:", in: "VmHWM:\t12345678 kB\n") == 12_345_678)
        #expect(PeakMemory.field("VmSwap:", in: status) == nil)
    }

    @Test func aWorkerSpawnedByABigProcessReportsItsOwnPeak() async throws {
        // This process's peak passes 200 MiB; a worker that fell back on ru_maxrss would say so.
        var touched = [UInt8](repeating: 1, count: 200 << 20)
        for index in stride(from: 0, to: touched.count, by: 4096) { touched[index] = 2 }
        #expect(touched[4096] == 2)
        touched = []
        let folder = try TemporaryDirectory()
        let worker = try WorkerProcess(in: folder)
        let hello = try await worker.receive()
        #expect(hello.peakRSSKiB > 0 && hello.peakRSSKiB < 100 * 1024, "the worker said \(hello.peakRSSKiB) KiB")
    }
}
