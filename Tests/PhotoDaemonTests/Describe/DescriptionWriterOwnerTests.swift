import FileSystem
import Foundation
import Glibc
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// A photo someone else owns, which this user may write (its bits say so) but could only replace
/// with a file of its own, is refused rather than handed to a new owner.
@Suite struct DescriptionWriterOwnerTests {
    /// Set in the child: the photo it is to refuse.
    static let photoVariable = "PHOTOD_DESCRIBE_OWNER_PHOTO"
    static var childPhoto: String? { ProcessInfo.processInfo.environment[photoVariable] }
    static let setpriv = "/usr/bin/setpriv"
    static var canDropPrivileges: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv) }

    @Test(.enabled(if: canDropPrivileges, "needs root and setpriv to run the writer as another user"))
    func anOwnerThatCannotBeKeptIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let original = TestPhoto.jpeg("Beach")
        let path = try dir.write("beach.jpg", original)
        // Root's photo, writable by anyone, in a folder anyone may write: only the owner stands in the way.
        try DescribeFixture.chmod(path, 0o666)
        try DescribeFixture.chmod(dir.path, 0o777)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try await ProcessRunner.run(Self.setpriv, [
            "--reuid=65534", "--regid=65534", "--clear-groups", executable,
            "--testing-library", "swift-testing", "--filter", "childRefusesAPhotoItDoesNotOwn",
        ], environment: [Self.photoVariable: path, "NO_COLOR": "1"], timeout: 120)
        // swift-testing reports on standard error.
        let report = result.stdout + result.stderr
        #expect(result.status == 0, "the child, as nobody, saw the refusal: \(report)")
        #expect(report.contains("Test childRefusesAPhotoItDoesNotOwn() passed"), "the child ran the check: \(report)")
        #expect(try DescribeFixture.bytes(path) == original)
        #expect(DescribeFixture.mode(path) == 0o666)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"], "the staged file is gone")
    }

    /// Runs only in the child the test above starts, as nobody.
    @Test(.enabled(if: childPhoto != nil, "runs only as the child of anOwnerThatCannotBeKeptIsRefused"))
    func childRefusesAPhotoItDoesNotOwn() throws {
        let path = try #require(Self.childPhoto)
        do {
            _ = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "New")
            Issue.record("a photo owned by root was replaced by nobody's file")
        } catch let error as DescriptionWriteError {
            guard case .attributesNotKept(let what) = error else { Issue.record("\(error)"); return }
            #expect(what.hasPrefix("owner"), "\(what)")
        }
    }
}
