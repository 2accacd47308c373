import Testing
@testable import PhotoDaemon

@Suite struct AuthorizationAppMatcherTests {
    private static let apps = ["org.gnome.Shotwell", "org.gnome.Loupe", "/usr/bin/gthumb", "org.gnome"]

    @Test func theFullIdWinsEvenWhenOthersContainIt() {
        #expect(AppMatcher.match("org.gnome", among: Self.apps) == .success("org.gnome"))
    }

    @Test func aUniquePartNamesTheApp() {
        #expect(AppMatcher.match("Loupe", among: Self.apps) == .success("org.gnome.Loupe"))
        #expect(AppMatcher.match("gthumb", among: Self.apps) == .success("/usr/bin/gthumb"))
    }

    @Test func aPartOfSeveralIdsIsAmbiguous() {
        #expect(AppMatcher.match("gnome.", among: Self.apps)
            == .failure(.ambiguous(query: "gnome.", candidates: ["org.gnome.Loupe", "org.gnome.Shotwell"])))
    }

    @Test func aPartOfNoIdIsUnknown() {
        #expect(AppMatcher.match("darktable", among: Self.apps) == .failure(.unknown(query: "darktable")))
        #expect(AppMatcher.match("loupe", among: Self.apps) == .failure(.unknown(query: "loupe")))
    }

    @Test func anEmptyQueryNamesNothing() {
        #expect(AppMatcher.match("", among: ["only.app"]) == .failure(.unknown(query: "")))
    }

    @Test func anIdListedTwiceIsOneCandidate() {
        #expect(AppMatcher.match("Loupe", among: ["org.gnome.Loupe", "org.gnome.Loupe"]) == .success("org.gnome.Loupe"))
    }
}
