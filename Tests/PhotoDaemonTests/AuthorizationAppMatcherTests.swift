import Testing
@testable import PhotoDaemon

/// APP on photoctl's command line names an app by its exact id or by whole components of it,
/// never by a substring (issue 11, item 12).
@Suite struct AuthorizationAppMatcherTests {
    private static func keys(_ ids: [String], uid: UInt32 = 1000) -> [AppKey] { ids.map { AppKey(uid: uid, id: $0) } }
    private static let calendar = "script:/usr/bin/bash:/home/ann/bin/calendar.sh"
    private static let lookalike = "script:/usr/bin/python3.11:/home/ann/bin/calendar.sh.d/x.py"
    private static let apps = keys([calendar, lookalike, "app:org.gnome.Loupe", "app:org.gnome.Shotwell", "exe:/usr/bin/gthumb"])

    private static func match(_ query: String, uid: UInt32? = nil, among apps: [AppKey] = apps) -> Result<String, AppMatchError> {
        AppMatcher.match(query, uid: uid, among: apps).map(\.id)
    }

    @Test func aWholeComponentNamesTheAppButAPrefixOfOneDoesNot() {
        #expect(Self.match("calendar.sh") == .success(Self.calendar))
        #expect(Self.match("calendar.sh.d") == .success(Self.lookalike))
        #expect(Self.match("x.py") == .success(Self.lookalike))
        #expect(Self.match("gthumb") == .success("exe:/usr/bin/gthumb"))
        #expect(Self.match("app:org.gnome.Loupe") == .success("app:org.gnome.Loupe"))
    }

    @Test func substringsNameNothing() {
        for query in ["calendar", "alendar.sh", "endar.sh.d/x", "Loupe", "gnome", "thumb", "org.gnome."] {
            #expect(Self.match(query) == .failure(.unknown(query: query)), "\(query)")
        }
    }

    @Test func aRunOfWholeComponentsNamesTheApp() {
        #expect(Self.match("bin/calendar.sh") == .success(Self.calendar))
        #expect(Self.match("/home/ann/bin/calendar.sh") == .success(Self.calendar))
        #expect(Self.match("/usr/bin/bash:/home/ann/bin/calendar.sh") == .success(Self.calendar))
        #expect(Self.match("ann/bin/calendar") == .failure(.unknown(query: "ann/bin/calendar")))
    }

    @Test func theKindOfAnIdIsNotAComponent() {
        #expect(Self.match("script") == .failure(.unknown(query: "script")))
        #expect(Self.match("app", among: Self.keys(["app:org.gnome.Loupe"])) == .failure(.unknown(query: "app")))
    }

    @Test func aComponentOfSeveralAppsIsAmbiguousAndListsThem() {
        #expect(AppMatcher.match("ann", among: Self.apps)
            == .failure(.ambiguous(query: "ann", candidates: Self.keys([Self.calendar, Self.lookalike]))))
    }

    @Test func theExactIdWinsOverComponentMatches() {
        let apps = Self.keys(["exe:/opt/tool", "exe:/opt/tool/bin/x"])
        #expect(Self.match("exe:/opt/tool", among: apps) == .success("exe:/opt/tool"))
    }

    @Test func anEmptyOrSeparatorOnlyQueryNamesNothing() {
        for query in ["", "/", ":", "//"] {
            #expect(Self.match(query, among: Self.keys(["exe:/only"])) == .failure(.unknown(query: query)))
        }
    }

    @Test func theSameIdOfTwoUsersNeedsTheUid() {
        let apps = Self.keys([Self.calendar]) + Self.keys([Self.calendar], uid: 1001)
        #expect(AppMatcher.match("calendar.sh", among: apps)
            == .failure(.ambiguous(query: "calendar.sh", candidates: apps)))
        #expect(AppMatcher.match(Self.calendar, among: apps)
            == .failure(.ambiguous(query: Self.calendar, candidates: apps)))
        #expect(AppMatcher.match("calendar.sh", uid: 1001, among: apps) == .success(AppKey(uid: 1001, id: Self.calendar)))
        #expect(AppMatcher.match("calendar.sh", uid: 1002, among: apps) == .failure(.unknown(query: "calendar.sh")))
    }
}
