import Testing
@testable import PhotoDaemon

@Suite struct AppIdentityCgroupTests {
    typealias S = AppIdentitySamples

    @Test(arguments: [
        ("app-gnome-org.gnome.Photos-1234.scope", "org.gnome.Photos"),
        ("app-org.kde.gwenview@a1b2.service", "org.kde.gwenview"),
        ("app-org.kde.gwenview.service", "org.kde.gwenview"),
        ("app-flatpak-org.darktable.Darktable-5678.scope", "org.darktable.Darktable"),
        (#"app-gnome-com.example.my\x2dapp-99.scope"#, "com.example.my-app"),
        ("app-org.example.Tool-1.scope", "org.example.Tool"),
        ("app-kde-org.kde.dolphin@f00d.service", "org.kde.dolphin"),
    ])
    func appUnitsNameTheirApplication(unit: String, applicationID: String) {
        #expect(AppIdentityResolver.applicationID(fromCgroup: S.cgroup(S.appSlice(unit))) == applicationID)
        let identity = AppIdentityResolver.identify(
            uid: 1000, cgroup: S.cgroup(S.appSlice(unit)), exe: "/usr/bin/gnome-photos",
            cmdline: S.cmdline("gnome-photos"), cwd: "/home/u"
        )
        #expect(identity == AppIdentity(
            id: "app:" + applicationID, uid: 1000, source: .appUnit, executable: "/usr/bin/gnome-photos"
        ))
    }

    @Test(arguments: [
        "/user.slice/user-1000.slice/session-2.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice",
        "/user.slice/user-1000.slice/user@1000.service",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-6f2f2e1a-1a2b-4c3d-9e8f-0a1b2c3d4e5f.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-4242.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Photos.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.example.Tool-1-2.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-kde-org.example.Tool-1.scope",
        "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.example..Tool-1.scope",
        #"/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.my\x2fapp-1.scope"#,
        #"/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.bad\x2-1.scope"#,
        "/system.slice/cron.service",
        "/",
        "",
    ])
    func otherUnitsAreNotAppUnits(path: String) {
        #expect(AppIdentityResolver.applicationID(fromCgroup: S.cgroup(path)) == nil)
    }

    @Test func theLastAppComponentWins() {
        let path = S.appSlice("app-gnome-org.example.Launcher-1.scope/app-kde-org.example.Child-2.scope/sub")
        #expect(AppIdentityResolver.applicationID(fromCgroup: S.cgroup(path)) == "org.example.Child")
    }

    @Test func cgroupV1NamesTheSystemdHierarchy() {
        let text = """
            12:pids:/user.slice/user-1000.slice/user@1000.service
            4:memory:/user.slice/app-gnome-org.example.Wrong-1.scope
            1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Photos-1234.scope
            """
        #expect(AppIdentityResolver.applicationID(fromCgroup: text) == "org.gnome.Photos")
    }

    @Test func hybridPrefersTheUnifiedLine() {
        let text = """
            1:name=systemd:\(S.appSlice("app-gnome-org.example.Legacy-1.scope"))
            0::\(S.appSlice("app-gnome-org.example.Unified-1.scope"))
            """
        #expect(AppIdentityResolver.applicationID(fromCgroup: text) == "org.example.Unified")
        let rootOnly = "1:name=systemd:\(S.appSlice("app-gnome-org.example.Legacy-1.scope"))\n0::/\n"
        #expect(AppIdentityResolver.applicationID(fromCgroup: rootOnly) == "org.example.Legacy")
    }

    @Test func anAppUnitOutranksAnInterpreter() {
        let identity = AppIdentityResolver.identify(
            uid: 1000, cgroup: S.cgroup(S.appSlice("app-org.example.Tool-1.scope")),
            exe: "/usr/bin/python3.11", cmdline: S.cmdline("python3", "/home/u/tool.py"), cwd: "/home/u"
        )
        #expect(identity.id == "app:org.example.Tool")
        #expect(identity.source == .appUnit)
        #expect(identity.executable == "/usr/bin/python3.11")
    }
}
