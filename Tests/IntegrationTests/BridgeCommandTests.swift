import Foundation
import PhotoTestSupport
import Posix
import Testing

/// `photoctl bridge` on its own, as ssh runs it: bytes both ways unchanged, several calls in one
/// write, the end of stdin ends the bridge promptly, and calls piped in get their replies.
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

    @Test func pipedCallsGetEveryReplyBeforeTheBridgeExits() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", ThumbnailedPhoto.jpeg("Holidays"))
        try await daemon.start()
        // stdin ends as soon as the calls are written, before photod can have answered.
        let result = try await ProcessRunner.run("/bin/sh", ["-c", "printf '\(Self.pipedCalls)' | photoctl bridge"],
                                                 environment: Self.onPath(daemon.environment), timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectPipedReplies(result.stdout)
    }

    @Test func aBridgeWhoseReaderWentAwayEndsWithACallInFlight() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let bridge = try TestChild(Binaries.photoctl, ["bridge"], environment: daemon.environment,
                                   input: .pipe, output: .pipe, error: .file(daemon.dir.file("bridge.err")))
        // A call that never ends by itself, then end of file: photod keeps serving it.
        let call = Array(#"{"method":"io.photod.Library.Subscribe","parameters":{},"more":true}"#.utf8) + [0]
        #expect(call.withUnsafeBytes { write(bridge.inputWriter, $0.baseAddress, $0.count) } == call.count)
        let first = await DetachedThread.result(name: "test-read") { bridge.readOutput(until: 0) }
        #expect(!first.isEmpty)
        bridge.closeInput()
        // Whoever read the replies goes (ssh's connection dropped): nobody takes them any more.
        bridge.closeOutput()
        let status = await bridge.exited(within: .seconds(10))
        if status == nil { _ = await bridge.kill() }
        #expect(status != nil, "the bridge ends rather than wait for a reply nobody reads")
    }

    /// Status, ListGroups and Status again, for printf: each ends in NUL.
    static let pipedCalls = [
        #"{"method":"io.photod.Library.Status","parameters":{}}"#,
        #"{"method":"io.photod.Library.ListGroups","parameters":{}}"#,
        #"{"method":"io.photod.Library.Status","parameters":{}}"#,
    ].map { $0 + "\\0" }.joined()

    /// Checks the three replies to `pipedCalls` came, whole and in order.
    static func expectPipedReplies(_ output: String) {
        let replies = output.split(separator: "\0", omittingEmptySubsequences: false)
        #expect(replies.count == 4 && replies.last == "", "every reply whole: \(output)")
        #expect(replies.first?.contains("\"assets\"") == true, "\(output)")
        #expect(replies.dropFirst().first?.contains("\"Holidays\"") == true, "\(output)")
        #expect(replies.dropFirst(2).first?.contains("\"assets\"") == true, "\(output)")
    }

    /// `environment` with the built photoctl first on PATH, for a shell pipeline.
    static func onPath(_ environment: [String: String]) -> [String: String] {
        environment.merging(["PATH": Binaries.productsFolder.path + ":/usr/bin:/bin"]) { $1 }
    }
}
