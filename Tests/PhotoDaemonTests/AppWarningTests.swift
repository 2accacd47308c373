import Testing
@testable import PhotoDaemon

/// Which app ids stand for more than one program, and the words the owner reads about them.
@Suite struct AppWarningTests {
    @Test func interpretersAndShellsWithoutAScriptCarryAWarning() throws {
        let python = try #require(AppWarning.text(for: "exe:/usr/bin/python3.11"))
        #expect(python.contains("python3.11") && python.contains("every program run that way"))
        let bash = try #require(AppWarning.text(for: "exe:/usr/bin/bash"))
        #expect(bash.contains("shell bash") && bash.contains("every command"))
        #expect(AppWarning.text(for: "exe:/bin/sh") != nil)
        #expect(AppWarning.text(for: "exe:/usr/bin/perl") != nil)
        #expect(AppWarning.text(for: "exe:/usr/bin/node") != nil)
        let unknown = try #require(AppWarning.text(for: "uid:1001:exe-unknown"))
        #expect(unknown.contains("user 1001"))
    }

    @Test func oneProgramCarriesNone() {
        for id in ["exe:/usr/bin/gimp", "script:/usr/bin/python3:/home/ann/bin/cal.py", "module:/usr/bin/python3:http.server",
                   "app:org.gnome.Shotwell", "exe:/usr/bin/pythonista", "exe:/usr/bin/bashful", "exe:/opt/sh/viewer"] {
            #expect(AppWarning.text(for: id) == nil, "\(id)")
        }
    }
}

/// The names a refused selection suggests instead.
@Suite struct SelectionCatalogTests {
    @Test func theClosestNamesComeNearestFirstAndFarOnesNotAtAll() {
        let groups = ["Beach", "Bench", "Beach 2021", "Mountains", "beach", "Hike"]
        #expect(SelectionCatalog.closest(to: "beach", among: groups) == ["Beach", "beach", "Beach 2021", "Bench"])
        #expect(SelectionCatalog.closest(to: "Beahc", among: groups) == ["Beach", "beach"], "Bench is three letters away")
        #expect(SelectionCatalog.closest(to: "Montains", among: groups) == ["Mountains"])
        #expect(SelectionCatalog.closest(to: "Zebra crossing", among: groups).isEmpty)
        #expect(SelectionCatalog.closest(to: "", among: groups).isEmpty)
    }

    @Test func atMostFiveAndLongNamesCostNoQuadraticWork() {
        let many = (1...20).map { "Trip \($0)" }
        #expect(SelectionCatalog.closest(to: "Trip", among: many).count == SelectionCatalog.maximumSuggestions)
        // Two 60,000-letter names: only the cheap tests run (the distance would be 3.6e9 steps).
        let long = String(repeating: "a", count: 60_000)
        let other = String(repeating: "b", count: 60_000)
        #expect(SelectionCatalog.closest(to: long, among: [other]).isEmpty)
        #expect(SelectionCatalog.closest(to: long, among: [long + "x"]) == [long + "x"])
    }

    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(SelectionCatalog.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(SelectionCatalog.editDistance(Array(""), Array("abc")) == 3)
        #expect(SelectionCatalog.editDistance(Array("abc"), Array("abc")) == 0)
    }
}
