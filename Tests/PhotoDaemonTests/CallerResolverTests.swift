import Foundation
import PhotoAPI
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

        /// A live process of `uid` running `exe` with `arguments`, child of `parent`, named
        /// `comm` (by default what the kernel names it: the executable's file name, 15 bytes).
        func add(pid: Int32, exe: String, arguments: [String], uid: UInt32 = 1000, parent: Int32 = 1,
                 cgroup: String = "0::/user.slice/user-1000.slice/session-2.scope", comm: String? = nil,
                 exeReadable: Bool = true) throws {
            let folder = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(cgroup.utf8).write(to: URL(fileURLWithPath: folder + "/cgroup"))
            try Data(arguments.map { $0 + "\0" }.joined().utf8).write(to: URL(fileURLWithPath: folder + "/cmdline"))
            try Data("Name:\tx\nState:\tS (sleeping)\nPPid:\t\(parent)\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/status"))
            let name = comm ?? String(URL(fileURLWithPath: exe).lastPathComponent.utf8.prefix(15)) ?? ""
            try Data((name + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/comm"))
            if exeReadable {
                try FileManager.default.createSymbolicLink(atPath: folder + "/exe", withDestinationPath: exe)
                try FileManager.default.createSymbolicLink(atPath: folder + "/cwd", withDestinationPath: "/home/ann")
            } else {
                // Stands in for another user's process: the links cannot be read (readlink fails
                // with EINVAL here, EACCES on /proc), while cgroup, cmdline and status can.
                try Data().write(to: URL(fileURLWithPath: folder + "/exe"))
                try Data().write(to: URL(fileURLWithPath: folder + "/cwd"))
            }
        }

        func resolver(trusted: [String] = []) -> CallerResolver {
            CallerResolver(ownerClient: "/usr/bin/photoctl", notifiers: ["/usr/libexec/photod/photod-notify"],
                           trusted: trusted, daemonUID: 1000, procRoot: root)
        }
    }

    private static func peer(_ pid: Int32, uid: UInt32 = 1000) -> VarlinkPeer { VarlinkPeer(pid: pid, uid: uid, gid: uid) }

    @Test func photoctlBesidePhotodIsTheOwner() throws {
        let proc = FakeProc()
        try proc.add(pid: 10, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--json", "groups"], comm: Self.owner)
        #expect(proc.resolver().resolve(Self.peer(10)).isOwner)
    }

    @Test func anotherUsersPhotoctlOrACopyElsewhereOrAReplacedOneIsNot() throws {
        let proc = FakeProc()
        try proc.add(pid: 10, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], uid: 1001, comm: Self.owner)
        try proc.add(pid: 11, exe: "/tmp/photoctl", arguments: ["photoctl", "groups"], comm: Self.owner)
        try proc.add(pid: 12, exe: "/usr/bin/photoctl (deleted)", arguments: ["photoctl", "groups"], comm: Self.owner)
        let resolver = proc.resolver()
        #expect(resolver.resolve(Self.peer(10, uid: 1001)) == .app(AppIdentity(
            id: "exe:/usr/bin/photoctl", uid: 1001, source: .executable, executable: "/usr/bin/photoctl")))
        #expect(resolver.resolve(Self.peer(11)).appID == "exe:/tmp/photoctl")
        #expect(!resolver.resolve(Self.peer(11)).isOwner)
        #expect(!resolver.resolve(Self.peer(12)).isOwner)
    }

    @Test func photodNotifyInPhotodsLibexecIsTheOwnerWhateverItsNameButNotACopyOrAnotherUsers() throws {
        let proc = FakeProc()
        // It never acts for another program, so its process name does not matter.
        try proc.add(pid: 10, exe: "/usr/libexec/photod/photod-notify", arguments: ["photod-notify"], comm: "photod-notify")
        try proc.add(pid: 11, exe: "/tmp/photod-notify", arguments: ["photod-notify"], comm: "photod-notify")
        try proc.add(pid: 12, exe: "/usr/libexec/photod/photod-notify (deleted)", arguments: ["photod-notify"])
        try proc.add(pid: 13, exe: "/usr/libexec/photod/photod-notify", arguments: ["photod-notify"], uid: 1001)
        let resolver = proc.resolver()
        #expect(resolver.resolve(Self.peer(10)).isOwner)
        #expect(!resolver.resolve(Self.peer(11)).isOwner)
        #expect(!resolver.resolve(Self.peer(12)).isOwner)
        #expect(!resolver.resolve(Self.peer(13, uid: 1001)).isOwner)
    }

    @Test func theRealResolverLooksForPhotodNotifyBesidePhotodAndInLibexec() {
        let resolver = CallerResolver(trusted: [])
        let folder = (resolver.ownerClient as NSString).deletingLastPathComponent
        #expect(resolver.notifiers == [folder + "/photod-notify",
                                       (folder as NSString).deletingLastPathComponent + "/libexec/photod/photod-notify"])
    }

    private static let owner = PhotoctlRole.owner.rawValue
    private static let app = PhotoctlRole.app.rawValue

    @Test func photoctlRequestAndAsAppActForTheScriptThatRanThem() throws {
        let proc = FakeProc()
        try proc.add(pid: 20, exe: "/usr/bin/bash", arguments: ["/bin/bash", "/home/ann/backup.sh"])
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "request", "--reason", "x"],
                     parent: 20, comm: Self.app)
        try proc.add(pid: 22, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--as-app", "list"], parent: 20, comm: Self.app)
        try proc.add(pid: 23, exe: "/usr/bin/photoctl", arguments: ["photoctl", "list", "--group", "request"],
                     parent: 20, comm: Self.owner)
        let resolver = proc.resolver()
        for pid: Int32 in [21, 22] {
            let caller = resolver.resolve(Self.peer(pid))
            #expect(!caller.isOwner)
            #expect(caller.appID == "script:/usr/bin/bash:/home/ann/backup.sh")
        }
        #expect(resolver.resolve(Self.peer(23)).isOwner, "\"request\" as an option's value is not the command")
    }

    /// Issue 11, item 13: a socket named without a slash was taken for the command, and
    /// `photoctl --socket io.photod request` was answered as the owner's own request.
    @Test func whomPhotoctlActsForDoesNotDependOnItsArguments() throws {
        let proc = FakeProc()
        try proc.add(pid: 20, exe: "/usr/bin/bash", arguments: ["/bin/bash", "/home/ann/backup.sh"])
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--socket", "io.photod", "request", "--reason", "x"],
                     parent: 20, comm: Self.app)
        try proc.add(pid: 22, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--service-user", "photod", "request"],
                     parent: 20, comm: Self.app)
        try proc.add(pid: 23, exe: "/usr/bin/photoctl", arguments: ["photoctl", "--socket=request", "groups"],
                     parent: 20, comm: Self.owner)
        let resolver = proc.resolver()
        for pid: Int32 in [21, 22] {
            #expect(resolver.resolve(Self.peer(pid)).appID == "script:/usr/bin/bash:/home/ann/backup.sh", "pid \(pid)")
        }
        #expect(resolver.resolve(Self.peer(23)).isOwner)
    }

    @Test func aPhotoctlThatDidNotNameItselfTheOwnerActsForItsCaller() throws {
        let proc = FakeProc()
        try proc.add(pid: 20, exe: "/usr/bin/bash", arguments: ["/bin/bash", "/home/ann/backup.sh"])
        // Exec'd under its own name and never renamed (or renamed to anything else).
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], parent: 20)
        try proc.add(pid: 22, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], parent: 20, comm: "photoctl-owne")
        let resolver = proc.resolver()
        #expect(resolver.resolve(Self.peer(21)).appID == "script:/usr/bin/bash:/home/ann/backup.sh")
        #expect(resolver.resolve(Self.peer(22)).appID == "script:/usr/bin/bash:/home/ann/backup.sh")
    }

    @Test func aParentThatIsGoneIsRefusedNotGuessed() throws {
        let proc = FakeProc()
        try proc.add(pid: 21, exe: "/usr/bin/photoctl", arguments: ["photoctl", "request", "--reason", "x"],
                     parent: 99, comm: Self.app)
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

    // MARK: A system service: clients of other users (issue 11, item 15)

    @Test func anotherUsersAppUnitIsIdentifiedFromItsCgroupAlone() throws {
        let proc = FakeProc()
        try proc.add(pid: 40, exe: "/usr/bin/gjs", arguments: ["gjs"], uid: 1001,
                     cgroup: "0::/user.slice/user-1001.slice/user@1001.service/app.slice/app-gnome-org.gnome.Photos-7.scope",
                     exeReadable: false)
        #expect(proc.resolver().resolve(Self.peer(40, uid: 1001)) == .app(AppIdentity(
            id: "app:org.gnome.Photos", uid: 1001, source: .appUnit, executable: "")))
    }

    @Test func anotherUsersProcessNoRuleCanNameIsKnownByItsUidAndIsNeverTheOwner() throws {
        let proc = FakeProc()
        try proc.add(pid: 41, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], uid: 1001,
                     cgroup: "0::/user.slice/user-1001.slice/session-4.scope", comm: Self.owner, exeReadable: false)
        let caller = proc.resolver(trusted: ["*"]).resolve(Self.peer(41, uid: 1001))
        #expect(caller == .app(AppIdentity(id: "uid:1001:exe-unknown", uid: 1001, source: .user, executable: "")))
        #expect(!caller.isOwner, "a trusted pattern matching everything still names no executable")
    }

    @Test func theDaemonsOwnUserWithAnUnreadableExecutableIsRefusedNotGuessed() throws {
        let proc = FakeProc()
        try proc.add(pid: 42, exe: "/usr/bin/photoctl", arguments: ["photoctl", "groups"], comm: Self.owner, exeReadable: false)
        guard case .unidentified(let reason) = proc.resolver().resolve(Self.peer(42)) else {
            Issue.record("a process of photod's own user that cannot be read must be refused")
            return
        }
        #expect(reason.contains("/proc/42/exe"))
    }

    @Test func anAppIdTooLongToNameIsRefused() throws {
        let proc = FakeProc()
        let deep = "/home/ann/" + String(repeating: "d/", count: 520) + "tool.py"
        try proc.add(pid: 43, exe: "/usr/bin/python3.11", arguments: ["python3", deep])
        guard case .unidentified(let reason) = proc.resolver().resolve(Self.peer(43)) else {
            Issue.record("an id over the APP limit must be refused")
            return
        }
        #expect(reason.contains("1024"))
    }
}
