import PhotoClient

/// A photod a test drives, in the test process or the real binary, through one API, so that one
/// test body runs against both (as HummingbirdTesting's `.router` and `.live` do).
public protocol PhotodUnderTest: AnyObject, Sendable {
    /// The library root.
    var library: String { get }
    /// Writes `bytes` as `relativePath` inside the library; returns its full path.
    @discardableResult func add(_ relativePath: String, _ bytes: [UInt8]) throws -> String
    /// A client connected as the library's owner.
    func ownerClient() async throws -> PhotoClient
}

extension DaemonHarness: PhotodUnderTest {
    /// A client connected as the owner: this test process, which the harness trusts by default.
    public func ownerClient() async throws -> PhotoClient {
        try await PhotoClient.connect(socketPath: socket)
    }
}
