import Testing
@testable import PhotoNotify

/// The command Choose… runs, and where photoctl is found.
@Suite struct PromptCommandTests {
    @Test func onlyIDsOfSafeCharactersArePassedToTheTerminal() {
        for id in ["script:/usr/bin/python3.11:/home/ann/bin/tool.py", "app:org.gnome.Photos", "exe:/opt/a+b@c-d_e"] {
            #expect(PromptCommand.isSafe(id), "\(id)")
            #expect(PromptCommand.arguments(photoctl: "/usr/bin/photoctl", app: AppKey(id: id, uid: 1000))
                    == ["/usr/bin/photoctl", "permissions", "prompt", "--app", id, "--uid", "1000"])
        }
        for id in ["exe:/opt/a b", "exe:/opt/$(rm -rf ~)", "exe:/opt/a;b", "exe:/opt/é", "-x", "", "exe:/opt/a\nb",
                   "exe:/opt/'q'", "exe:/opt/a*b"] {
            #expect(!PromptCommand.isSafe(id), "\(id)")
            #expect(PromptCommand.arguments(photoctl: "photoctl", app: AppKey(id: id, uid: 1000))
                    == ["photoctl", "permissions", "prompt"])
        }
    }

    @Test func photoctlIsLookedForBesideTheNotifierThenInBinThenOnPath() {
        let installed = "/usr/libexec/photod/photod-notify"
        #expect(PromptCommand.photoctl(besides: installed) { $0 == "/usr/bin/photoctl" } == "/usr/bin/photoctl")
        #expect(PromptCommand.photoctl(besides: installed) { _ in true } == "/usr/libexec/photod/photoctl")
        #expect(PromptCommand.photoctl(besides: installed) { _ in false } == "photoctl")
        #expect(PromptCommand.photoctl(besides: "/w/.build/debug/photod-notify") { $0 == "/w/.build/debug/photoctl" }
                == "/w/.build/debug/photoctl")
    }
}
