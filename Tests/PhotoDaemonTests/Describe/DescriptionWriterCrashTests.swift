import FileSystem
import Foundation
import Glibc
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// A process killed between staging the new JPEG and renaming it over the photo leaves the old
/// photo whole; what it staged is a hidden file the library's walk passes over.
@Suite struct DescriptionWriterCrashTests {
    /// Set in the child: the photo it writes and is killed writing.
    static let photoVariable = "PHOTOD_DESCRIBE_CRASH_PHOTO"
    static var childPhoto: String? { ProcessInfo.processInfo.environment[photoVariable] }

    @Test func aKillBeforeTheRenameLeavesTheOldPhotoWhole() async throws {
        let dir = try TemporaryDirectory()
        let original = TestPhoto.jpeg("Beach")
        let path = try dir.write("library/beach.jpg", original)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try TestChild(executable, ["--testing-library", "swift-testing", "--filter", "childIsKilledBeforeTheRename"],
                                  environment: [Self.photoVariable: path], output: .null, error: .null)
        let status = await child.exited(within: .seconds(120))
        #expect(status == SIGKILL, "the child ends by SIGKILL from its hook (status \(String(describing: status)))")
        #expect(FileManager.default.fileExists(atPath: dir.file("reached")), "the hook ran: the new file was staged")

        #expect(try DescribeFixture.bytes(path) == original, "the photo is the old one, whole")
        let left = DescribeFixture.names(dir.file("library")).filter { $0.hasPrefix(".photod-new-") }
        #expect(left.count == 1, "SIGKILL runs no clean-up: the staged file stays, under its hidden name")
        #expect(DescribeFixture.walked(dir.file("library")) == [path], "the walk sees the photo only")
    }

    /// Runs only in the child the test above starts: writes, and is killed by its own hook.
    @Test(.enabled(if: childPhoto != nil, "runs only as the child of aKillBeforeTheRenameLeavesTheOldPhotoWhole"))
    func childIsKilledBeforeTheRename() throws {
        let path = try #require(Self.childPhoto)
        var writer = DescribeFixture.writer()
        writer.beforeCommit = { target in
            // Beside the library folder, so the walk above does not see it.
            let folder = target.parent?.parent?.description ?? "/"
            close(open(folder + "/reached", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
            kill(getpid(), SIGKILL)
        }
        _ = try writer.write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "Never seen")
        Issue.record("the hook did not end the process")
    }
}
