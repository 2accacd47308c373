import Foundation
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

@Suite struct AppIdentityProcessTests {
    /// A scratch folder standing in for /proc, removed when the test ends.
    final class FakeProc {
        let root: String
        let pid: Int32 = 4242

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        var directory: String { "\(root)/\(pid)" }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(name)", withDestinationPath: target)
        }

        /// A complete, live python process of uid 1000 running `tool.py` from /home/u.
        func fillPython(state: String = "S (sleeping)", uid: String = "1000") throws {
            try write("cgroup", "0::/user.slice/user-1000.slice/session-2.scope\n")
            try write("cmdline", "python3\0-u\0tool.py\0")
            try link("cwd", to: "/home/u")
            try link("exe", to: "/usr/bin/python3.11")
            try write("status", "Name:\tpython3\nState:\t\(state)\nTgid:\t4242\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n")
        }
    }

    @Test func theTestProcessIsItsOwnExecutable() throws {
        let pid = ProcessInfo.processInfo.processIdentifier
        let uid = UInt32(getuid())
        let result = AppIdentityResolver.identify(pid: pid, uid: uid)
        let identity = try result.get()
        let ownExecutable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(identity.uid == uid)
        #expect(identity.executable == ownExecutable)
        #expect(FileManager.default.isExecutableFile(atPath: identity.executable))
        let cgroup = try String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        if let applicationID = AppIdentityResolver.applicationID(fromCgroup: cgroup) {
            #expect(identity.id == "app:" + applicationID)
            #expect(identity.source == .appUnit)
        } else {
            #expect(identity.id == "exe:" + ownExecutable)
            #expect(identity.source == .executable)
        }
    }

    @Test func aLiveShellScriptIsIdentifiedThenRefusedOnceItExits() async throws {
        let proc = try FakeProc()
        try Data("echo ready\nread line\n".utf8).write(to: URL(fileURLWithPath: "\(proc.directory)/wait.sh"))
        let child = try TestChild("/bin/sh", ["./wait.sh"], directory: proc.directory, input: .pipe, output: .pipe)
        #expect(await child.readOutputLine() == "ready")

        let pid = child.pid
        let uid = UInt32(getuid())
        let shell = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        let cwd = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
        let identity = try AppIdentityResolver.identify(pid: pid, uid: uid).get()
        #expect(identity.source == .script)
        #expect(identity.id == "script:\(shell):\(AppIdentityPath.normalized(cwd + "/wait.sh"))")

        child.closeInput()
        #expect(await child.exited(within: .seconds(30)) != nil, "the script ends at the end of its input")
        #expect(throws: AppIdentityError.processGone(pid: pid)) {
            try AppIdentityResolver.identify(pid: pid, uid: uid).get()
        }
    }

    @Test func aFakeProcessIsReadLikeARealOne() throws {
        let proc = try FakeProc()
        try proc.fillPython()
        let identity = try AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root).get()
        #expect(identity == AppIdentity(
            id: "script:/usr/bin/python3.11:/home/u/tool.py", uid: 1000, source: .script,
            executable: "/usr/bin/python3.11"
        ))
    }

    @Test func aDeletedExecutableLinkIsFlagged() throws {
        let proc = try FakeProc()
        try proc.fillPython()
        try FileManager.default.removeItem(atPath: "\(proc.directory)/exe")
        try proc.link("exe", to: "/usr/bin/photoctl (deleted)")
        let identity = try AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root).get()
        #expect(identity.id == "exe:/usr/bin/photoctl")
        #expect(identity.executableDeleted)
    }

    @Test(arguments: ["cgroup", "cmdline", "cwd", "exe", "status"])
    func aMissingFileMeansTheProcessIsGone(missing: String) throws {
        let proc = try FakeProc()
        try proc.fillPython()
        try FileManager.default.removeItem(atPath: "\(proc.directory)/\(missing)")
        let result = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        #expect(throws: AppIdentityError.processGone(pid: proc.pid)) { try result.get() }
    }

    @Test func aMissingPidIsGone() throws {
        let proc = try FakeProc()
        let result = AppIdentityResolver.identify(pid: 999_999, uid: 1000, procRoot: proc.root)
        #expect(throws: AppIdentityError.processGone(pid: 999_999)) { try result.get() }
        let empty = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        #expect(throws: AppIdentityError.processGone(pid: proc.pid)) { try empty.get() }
    }

    @Test func aZombieIsGone() throws {
        let proc = try FakeProc()
        try proc.fillPython(state: "Z (zombie)")
        let result = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        #expect(throws: AppIdentityError.processGone(pid: proc.pid)) { try result.get() }
    }

    @Test func aPidNowOwnedByAnotherUserIsGone() throws {
        let proc = try FakeProc()
        try proc.fillPython(uid: "1001")
        let result = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        #expect(throws: AppIdentityError.processGone(pid: proc.pid)) { try result.get() }
    }

    @Test func anUnreadableFileIsNotMistakenForAnExit() throws {
        let proc = try FakeProc()
        try proc.fillPython()
        try FileManager.default.removeItem(atPath: "\(proc.directory)/cgroup")
        try FileManager.default.createDirectory(atPath: "\(proc.directory)/cgroup", withIntermediateDirectories: false)
        let result = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        let expected = AppIdentityError.unreadable(pid: proc.pid, what: "cgroup", errno: EISDIR)
        #expect(throws: expected) { try result.get() }
    }

    /// Another user's process (photod as a system service): exe and cwd cannot be read, the
    /// cgroup can, and it is read first, so an app unit still names the app.
    @Test func anUnreadableExecutableIsNoObstacleWhenTheCgroupNamesAnAppUnit() throws {
        let proc = try FakeProc()
        try proc.fillPython(uid: "1001")
        try proc.write("cgroup", "0::/user.slice/user-1001.slice/user@1001.service/app.slice/app-flatpak-org.darktable.Darktable-9.scope\n")
        for name in ["exe", "cwd"] {
            try FileManager.default.removeItem(atPath: "\(proc.directory)/\(name)")
            try proc.write(name, "")
        }
        let identity = try AppIdentityResolver.identify(pid: proc.pid, uid: 1001, procRoot: proc.root).get()
        #expect(identity == AppIdentity(id: "app:org.darktable.Darktable", uid: 1001, source: .appUnit, executable: ""))

        try proc.write("cgroup", "0::/user.slice/user-1001.slice/session-3.scope\n")
        let unnamed = AppIdentityResolver.identify(pid: proc.pid, uid: 1001, procRoot: proc.root)
        #expect(throws: AppIdentityError.unreadable(pid: proc.pid, what: "exe", errno: EINVAL)) { try unnamed.get() }
    }

    @Test func aStatusWithoutUidsIsUnreadable() throws {
        let proc = try FakeProc()
        try proc.fillPython()
        try proc.write("status", "Name:\tpython3\nState:\tS (sleeping)\n")
        let result = AppIdentityResolver.identify(pid: proc.pid, uid: 1000, procRoot: proc.root)
        let expected = AppIdentityError.unreadable(pid: proc.pid, what: "status", errno: EINVAL)
        #expect(throws: expected) { try result.get() }
    }

    @Test func foundationErrorsYieldTheirErrno() {
        #expect(AppIdentityProcess.posixCode(of: POSIXError(.ESRCH)) == ESRCH)
        #expect(AppIdentityProcess.posixCode(of: CocoaError(.fileReadNoSuchFile)) == ENOENT)
        #expect(AppIdentityProcess.posixCode(of: CocoaError(.fileReadUnknown)) == nil)
        let process = AppIdentityProcess(pid: 5, procRoot: "/proc")
        #expect(process.failure(reading: "cmdline", POSIXError(.ESRCH)) == .processGone(pid: 5))
        #expect(process.failure(reading: "exe", POSIXError(.EACCES)) == .unreadable(pid: 5, what: "exe", errno: EACCES))
    }
}
