import PhotoClient
import Testing
import PhotoTestSupport

/// Where a test body's photod runs: in the test process (`TestDaemon`: fast, callers named by
/// the test) or as the real binary (`DaemonHarness`: the real process, its start-up and its
/// own identification of callers). A test that takes both as arguments checks
/// that the two agree.
enum PhotodTarget: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inProcess
    case live

    var testDescription: String { rawValue }

    /// Runs `body` with a started photod of this kind over a library `prepare` fills, and stops it.
    func run(prepare: (any PhotodUnderTest) throws -> Void = { _ in },
             _ body: (any PhotodUnderTest) async throws -> Void) async throws {
        switch self {
        case .inProcess:
            try await TestDaemon.withDaemon(prepare: { try prepare($0) }, body)
        case .live:
            let daemon = try DaemonHarness()
            try prepare(daemon)
            try await daemon.start()
            try await withClosing(daemon, close: { _ = await $0.stop() }, body)
        }
    }
}

extension TestDaemon: PhotodUnderTest {
    /// A client connected as the owner.
    func ownerClient() async throws -> PhotoClient { try await client() }
}
