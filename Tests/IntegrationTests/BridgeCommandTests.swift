import Foundation
import PhotoTestSupport
import Posix
import Testing

/// `photoctl bridge` on its own, as ssh runs it: bytes both ways unchanged, several calls in one
/// write, and the end of stdin ends the bridge promptly.
@Suite struct BridgeCommandTests {
    @Test func repliesComeBackAsSentAndEndOfFileEndsTheBridge() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", ThumbnailedPhoto.jpeg("Holidays"))
        try await daemon.start()
        let bridge = try TestChild(Binaries.photoctl, ["bridge"], environment: daemon.environment,
                                   input: .pipe, output: .pipe, error: .file(daemon.dir.file("bridge.err")))
        // Two calls in one write: the bridge passes bytes, not messages.
        let calls = #"{"method":"io.photod.Library.ListGroups","parameters":{}}"# + "\0"
            + #"{"method":"io.photod.Library.Status","parameters":{}}"# + "\0"
        let bytes = Array(calls.utf8)
        #expect(bytes.withUnsafeBytes { write(bridge.inputWriter, $0.baseAddress, $0.count) } == bytes.count)
        // Read off the concurrency pool: the replies are NUL-terminated.
        let replies = await DetachedThread.result(name: "test-read") {
            [bridge.readOutput(until: 0), bridge.readOutput(until: 0)].map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(replies[0].contains("\"Holidays\""), "\(replies)")
        #expect(replies[1].contains("\"assets\""), "\(replies)")
        // End of file on stdin: the bridge half-closes, photod closes, the bridge exits 0.
        bridge.closeInput()
        let status = await bridge.exited(within: .seconds(10))
        if status == nil { _ = await bridge.kill() }
        let log = (try? String(contentsOfFile: daemon.dir.file("bridge.err"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(log)")
    }
}
