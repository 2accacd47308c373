import ArgumentParser
import PhotoClient
import Testing
@testable import PhotoCommands

@Suite struct DidYouMeanTests {
    static let commands = ["status", "groups", "list", "show", "rescan", "watch", "permissions", "request",
                           "thumbnail", "export", "open"]

    @Test func typosFindTheCommand() {
        #expect(DidYouMean.suggestions(for: "lsit", among: Self.commands) == ["list"], "two letters swapped is one edit")
        #expect(DidYouMean.suggestions(for: "grops", among: Self.commands) == ["groups"])
        #expect(DidYouMean.suggestions(for: "perm", among: Self.commands) == ["permissions"], "the start of a name")
        #expect(DidYouMean.suggestions(for: "STATUS", among: Self.commands) == ["status"])
        #expect(DidYouMean.suggestions(for: "thumbnial", among: Self.commands) == ["thumbnail"])
    }

    @Test func nothingNearIsNothing() {
        #expect(DidYouMean.suggestions(for: "frobnicate", among: Self.commands).isEmpty)
        #expect(DidYouMean.suggestions(for: "", among: Self.commands).isEmpty)
        #expect(DidYouMean.suggestions(for: String(repeating: "x", count: 10_000), among: Self.commands).isEmpty)
    }

    @Test func theEditDistanceCountsSwapsAsOne() {
        #expect(DidYouMean.editDistance(Array("lsit"), Array("list")) == 1)
        #expect(DidYouMean.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(DidYouMean.editDistance(Array(""), Array("abc")) == 3)
        #expect(DidYouMean.editDistance(Array("abc"), Array("abc")) == 0)
    }

    @Test func thePhraseQuotesEachName() {
        #expect(DidYouMean.phrase([], orSee: "photoctl --help") == " (see `photoctl --help`)", "nothing near: where to look")
        #expect(DidYouMean.phrase(["list"], orSee: "photoctl --help") == "; did you mean \"list\"?")
        #expect(DidYouMean.phrase(["a", "b"], orSee: "photoctl groups") == "; did you mean \"a\" or \"b\"?")
        #expect(DidYouMean.phrase(["a", "b", "c"], orSee: "photoctl --help") == "; did you mean \"a\", \"b\" or \"c\"?")
    }

    @Test func anUnknownCommandIsFoundWhereACommandWasExpected() {
        #expect(UnknownCommand.find(in: ["lsit", "Beach"], root: Photoctl.self)
                == UnknownCommand(command: "photoctl", word: "lsit", suggestions: ["list"]))
        #expect(UnknownCommand.find(in: ["permissions", "alow", "x"], root: Photoctl.self)?.command == "photoctl permissions")
        #expect(UnknownCommand.find(in: ["permissions", "alow", "x"], root: Photoctl.self)?.suggestions.first == "allow")
        #expect(UnknownCommand.find(in: ["list", "Not A Command"], root: Photoctl.self) == nil, "an argument")
        #expect(UnknownCommand.find(in: ["list", "--limit", "0"], root: Photoctl.self) == nil)
        #expect(UnknownCommand.find(in: ["--bogus"], root: Photoctl.self) == nil, "an option is ArgumentParser's to report")
        #expect(UnknownCommand.find(in: ["help", "list"], root: Photoctl.self) == nil)
        #expect(UnknownCommand(command: "photoctl", word: "x", suggestions: []).description
                == "photoctl: unknown command \"x\" (see `photoctl --help`)")
    }
}
