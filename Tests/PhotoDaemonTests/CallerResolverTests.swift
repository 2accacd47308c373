import Foundation
import Testing
import Varlink
@testable import PhotoDaemon

/// Who is the owner: photoctl beside photod of the same user, or a trusted program; photoctl
/// acting for its parent (`request`, `--as-app`) is that parent.
@Suite struct CallerResolverTests {
    /// A scratch /proc with any number of processes.
    final class FakeProc {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)").path

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A live process of `uid` running `exe` with `arguments`, child of `parent`.
        func add(pid: Int32, exe: String, arguments: [String], uid: UInt32 = 1000, parent: Int32 = 1,
                 cgroup: String = "0::/user.slice/user-1000.slice/session-2.scope") throws {
            let folder = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(cgroup.utf8).write(to: URL(fileURLWithPath: folder + "/cgroup"))
            try Data(arguments.map { $0 + "\0" }.joined().utf8).write(to: URL(fileURLWithPath: folder + "/cmdline"))
            try Data("Name:\tx\nState:\tS (sleeping)\nPPid:\t\(parent)\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/status"))
            try FileManager.default.createSymbolicLink(atPath: folder + "/exe", withDestinationPath: exe)
            try FileManager.default.createSymbolicLink(atPath: folder + "/cwd", withDestinationPath: "/home/ann")
        }

        func resolver(trusted: [String] = []) -> CallerResolver {
            CallerResolver(ownerClient: "/usr/bin/photoctl", trusted: trusted, daemonUID: 1000, procRoot: root)
        }
    }

    private static func peer(_ pid: Int32, uid: UInt32 = 1000) -> VarlinkPeer { VarlinkPeer(pid: pid, uid: uid, gid: uid) }

    @Test func photoctlBesidePhotodIsTheOwner() throws {
        let proc = FakeProc()
        try proc.add(pid: 10, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--json", "groups"])
        #expect(proc.resolver().resolve(Self.peer(10)).isOwner)
    }

    @Test func anotherUsersPhotoctlOrACopyElsewhereOrAReplacedOneIsNot() throws {
        let proc = FakeProc()
        try proc.add(pid: 10, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], uid: 1001)
        try proc.add(pid: 11, exe: "/tmp/photoctl", arguments: ["photoctl", "groups"])
        try proc.add(pid: 12, exe: "/usr/bin/photoctl (deleted)", arguments: ["photoctl", "groups"])
        let resolver = proc.resolver()
        #expect(resolver.resolve(Self.peer(10, uid: 1001)) == .app(AppIdentity(
            id: "exe:/usr/bin/photoctl", uid: 1001, source: .executable, executable: "/usr/bin/photoctl")))
        #expect(resolver.resolve(Self.peer(11)).appID == "exe:/tmp/photoctl")
        #expect(!resolver.resolve(Self.peer(11)).isOwner)
        #expect(!resolver.resolve(Self.peer(12)).isOwner)
    }

    @Test func photoctlRequestAndAsAppActForTheScriptThatRanThem() throws {
        let proc = FakeProc()
        try proc.add(pid: 20, exe: "/usr/bin/bash", arguments: ["/bin/bash", "/home/ann/backup.sh"])
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "request", "--reason", "x"], parent: 20)
        try proc.add(pid: 22, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--as-app", "list"], parent: 20)
        try proc.add(pid: 23, exe: "/usr/bin/photoctl", arguments: ["photoctl", "list", "--group", "request"], parent: 20)
        let resolver = proc.resolver()
        for pid: Int32 in [21, 22] {
            let caller = resolver.resolve(Self.peer(pid))
            #expect(!caller.isOwner)
            #expect(caller.appID == "script:/usr/bin/bash:/home/ann/backup.sh")
        }
        #expect(resolver.resolve(Self.peer(23)).isOwner, "\"request\" as an option's value is not the command")
    }

    @Test func aParentThatIsGoneIsRefusedNotGuessed() throws {
        let proc = FakeProc()
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "request", "--reason", "x"], parent: 99)
        guard case .unidentified = proc.resolver().resolve(Self.peer(21)) else {
            Issue.record("a photoctl whose parent vanished must be refused")
            return
        }
    }

    @Test func trustedEntriesMatchExecutablesAndAppIdsButNotScriptsThroughTheirInterpreter() throws {
        let proc = FakeProc()
        try proc.add(pid: 30, exe: "/usr/bin/shotwell", arguments: ["shotwell"])
        try proc.add(pid: 31, exe: "/usr/bin/gjs", arguments: ["gjs"],
                     cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Photos-42.scope")
        try proc.add(pid: 32, exe: "/usr/bin/python3.11", arguments: ["python3", "/home/ann/tool.py"])
        try proc.add(pid: 33, exe: "/usr/bin/eog", arguments: ["eog"])
        let resolver = proc.resolver(trusted: ["/usr/bin/shotwell", "app:org.gnome.*", "/usr/bin/python3*"])
        #expect(resolver.resolve(Self.peer(30)).isOwner)
        #expect(resolver.resolve(Self.peer(31)).isOwner)
        #expect(resolver.resolve(Self.peer(31)).appID == "app:org.gnome.Photos")
        #expect(!resolver.resolve(Self.peer(32)).isOwner, "trusting python must not trust every script it runs")
        #expect(!resolver.resolve(Self.peer(33)).isOwner)
    }

    @Test func noCredentialsOrAVanishedProcessIsUnidentified() throws {
        let proc = FakeProc()
        #expect(proc.resolver().resolve(nil) == .unidentified(reason: "the kernel gave no peer credentials"))
        guard case .unidentified(let reason) = proc.resolver().resolve(Self.peer(77)) else {
            Issue.record("a vanished pid must be refused")
            return
        }
        #expect(reason.contains("77"))
    }
}
