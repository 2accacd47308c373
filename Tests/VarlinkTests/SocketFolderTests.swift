import Foundation
import Testing

@testable import Varlink
@testable import VarlinkCore

/// The folders on the way to a socket: photod creates them private and refuses ones another user
/// made or could change; photoctl refuses a runtime directory that is not the user's own.
@Suite struct SocketFolderTests {
    /// A scratch folder for one test, owned by this process's user, mode 0700.
    final class Scratch {
        let path: String
        init() throws {
            path = "/tmp/sf-\(getpid())-\(UUID().uuidString.prefix(8))"
            guard mkdir(path, 0o700) == 0 else { throw POSIXError(.EEXIST) }
        }
        func make(_ name: String, mode: mode_t = 0o700) throws -> String {
            let full = path + "/" + name
            guard mkdir(full, mode) == 0, chmod(full, mode) == 0 else { throw POSIXError(.EIO) }
            return full
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o7777
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test func createsTheMissingFoldersPrivate() throws {
        let scratch = try Scratch()
        let runtime = scratch.path + "/run"
        try SocketFolder.prepare(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        #expect(Self.mode(runtime) == 0o700)
        #expect(Self.mode(runtime + "/photod") == 0o700)
        // Prepared once, the same folders pass again: photod restarts.
        try SocketFolder.prepare(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        try SocketFolder.verify(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
    }

    @Test func aRuntimeDirectoryOpenToOthersIsRefusedAndLeftAsItWas() throws {
        let scratch = try Scratch()
        let runtime = try scratch.make("run", mode: 0o777)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
        #expect(error == SocketFolderError(path: runtime, problem: .openToOthers(mode: UInt32(S_IFDIR) | 0o777)))
        #expect(error?.description.contains("0777") == true, "\(String(describing: error))")
        #expect(Self.mode(runtime) == 0o777)
        #expect(!Self.exists(runtime + "/photod"))
        #expect(throws: SocketFolderError.self) {
            try SocketFolder.verify(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
    }

    @Test func aRuntimeDirectoryOfAnotherUserIsRefusedAndNothingIsMadeInIt() throws {
        let scratch = try Scratch()
        let runtime = try scratch.make("run")
        #expect(chown(runtime, 65534, 65534) == 0)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
        #expect(error?.problem == .ownedBy(65534))
        #expect(error?.description.contains("uid 65534") == true)
        #expect(!Self.exists(runtime + "/photod"))
        let client = #expect(throws: SocketFolderError.self) {
            try SocketFolder.verify(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
        #expect(client?.problem == .ownedBy(65534))
    }

    @Test func aRuntimeDirectoryThatIsASymlinkIsRefused() throws {
        let scratch = try Scratch()
        let target = try scratch.make("elsewhere")
        let runtime = scratch.path + "/run"
        #expect(symlink(target, runtime) == 0)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
        #expect(error?.problem == .symbolicLink)
        #expect(!Self.exists(target + "/photod"))
        let client = #expect(throws: SocketFolderError.self) {
            try SocketFolder.verify(socket: runtime + "/photod/io.photod", runtimeDirectory: runtime)
        }
        #expect(client?.problem == .symbolicLink)
    }

    @Test func aSocketFolderInsideTheRuntimeDirectoryMadeByAnotherUserIsRefused() throws {
        let scratch = try Scratch()
        let runtime = try scratch.make("run")
        let folder = try scratch.make("run/photod")
        #expect(chown(folder, 65534, 65534) == 0)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: folder + "/io.photod", runtimeDirectory: runtime)
        }
        #expect(error == SocketFolderError(path: folder, problem: .ownedBy(65534)))
    }

    @Test func aFolderAboveThatOthersMayWriteIsRefusedUnlessSticky() throws {
        let scratch = try Scratch()
        let shared = try scratch.make("shared", mode: 0o777)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: shared + "/mine/io.photod", runtimeDirectory: nil)
        }
        #expect(error?.problem == .writableByOthers(mode: UInt32(S_IFDIR) | 0o777))
        #expect(!Self.exists(shared + "/mine"))

        // As /tmp is: others may create there but not rename what is mine.
        #expect(chmod(shared, 0o1777) == 0)
        try SocketFolder.prepare(socket: shared + "/mine/io.photod", runtimeDirectory: nil)
        #expect(Self.mode(shared + "/mine") == 0o700)
    }

    @Test func aFolderAboveOwnedByAnotherUserIsRefused() throws {
        let scratch = try Scratch()
        let theirs = try scratch.make("theirs", mode: 0o755)
        #expect(chown(theirs, 65534, 65534) == 0)
        let error = #expect(throws: SocketFolderError.self) {
            try SocketFolder.prepare(socket: theirs + "/mine/io.photod", runtimeDirectory: nil)
        }
        #expect(error?.problem == .ownedBy(65534))
    }

    @Test func theClientLeavesASocketOutsideTheRuntimeDirectoryToThePeerCheck() throws {
        // A system service's socket (/run/photod) is in a folder of the service user's.
        let scratch = try Scratch()
        let service = try scratch.make("service", mode: 0o755)
        #expect(chown(service, 65534, 65534) == 0)
        try SocketFolder.verify(socket: service + "/io.photod", runtimeDirectory: scratch.path + "/run")
    }
}
