import Foundation
import Testing
@testable import PhotoDaemon

@Suite struct AppIdentityResolverTests {
    typealias S = AppIdentitySamples

    @Test(arguments: ["/usr/bin/photoctl", "/opt/Darktable/bin/darktable", "/home/u/.local/bin/my tool"])
    func plainExecutablesAreIdentifiedByPath(exe: String) {
        let identity = S.plain(exe: exe, S.cmdline("whatever-it-claims", "/home/u/tool.py"))
        #expect(identity == AppIdentity(id: "exe:" + exe, uid: 1000, source: .executable, executable: exe))
    }

    @Test func aDeletedExecutableIsStrippedAndFlagged() {
        let identity = S.plain(exe: "/usr/bin/photoctl (deleted)", S.cmdline("photoctl"))
        #expect(identity.id == "exe:/usr/bin/photoctl")
        #expect(identity.executable == "/usr/bin/photoctl")
        #expect(identity.executableDeleted)
        #expect(!S.plain(exe: "/usr/bin/photoctl", S.cmdline("photoctl")).executableDeleted)
    }

    @Test func aDeletedInterpreterStillRunsItsScript() {
        let identity = S.plain(exe: "/usr/bin/python3.11 (deleted)", S.cmdline("python3", "t.py"), cwd: "/w")
        #expect(identity.id == "script:/usr/bin/python3.11:/w/t.py")
        #expect(identity.executableDeleted)
    }

    @Test func argvZeroNeverNamesTheApp() {
        let honest = S.plain(exe: "/usr/bin/foo", S.cmdline("/usr/bin/foo"))
        let lying = S.plain(exe: "/usr/bin/foo", S.cmdline("org.gnome.Photos"))
        #expect(honest.id == lying.id)
    }

    @Test func cmdlineSplitsOnNul() {
        #expect(AppIdentityResolver.arguments(fromCmdline: S.cmdline("a", "", "b c")) == ["a", "", "b c"])
        #expect(AppIdentityResolver.arguments(fromCmdline: Array("a\0b".utf8)) == ["a", "b"])
        #expect(AppIdentityResolver.arguments(fromCmdline: []) == [])
    }

    @Test(arguments: [
        ("/a/b/../c", "/a/c"), ("//a///b/", "/a/b"), ("/a/./b/.", "/a/b"), ("/../../a", "/a"), ("/", "/"),
    ])
    func pathsAreNormalizedLexically(path: String, normalized: String) {
        #expect(AppIdentityPath.normalized(path) == normalized)
    }

    @Test func identitiesRoundTripThroughCodable() throws {
        let identity = S.plain(exe: "/usr/bin/python3.11 (deleted)", S.cmdline("python3", "-m", "a.b"))
        let data = try JSONEncoder().encode(identity)
        #expect(try JSONDecoder().decode(AppIdentity.self, from: data) == identity)
        #expect(identity.id == "module:/usr/bin/python3.11:a.b")
    }

    @Test func errorsSayWhatHappened() {
        #expect(AppIdentityError.processGone(pid: 42).description == "process 42 exited before it could be identified")
        #expect(AppIdentityError.unreadable(pid: 7, what: "exe", errno: 13).description
            == "cannot read /proc/7/exe: EACCES (errno 13)")
    }
}
