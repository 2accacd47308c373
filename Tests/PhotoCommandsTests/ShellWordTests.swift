import ArgumentParser
import PhotoAPI
import Testing
@testable import PhotoCommands

@Suite struct ShellWordTests {
    @Test func quotesAndEscapesAreTakenOffAsTheShellWould() {
        #expect(ShellWord.unquoted("Beach\\ Trip") == "Beach Trip")
        #expect(ShellWord.unquoted("\"Beach T") == "Beach T", "a word still being typed ends inside its quotes")
        #expect(ShellWord.unquoted("'it'\\''s'") == "it's")
        #expect(ShellWord.unquoted("'a\\b'") == "a\\b", "no escapes inside single quotes")
        #expect(ShellWord.unquoted("\"a\\$b\\x\"") == "a$b\\x", "inside double quotes a backslash escapes only $ ` \" \\")
        #expect(ShellWord.unquoted("plain") == "plain")
    }

    @Test func candidatesAreWrittenForEachShellAsLiteralWords() {
        let names = ["Beach Trip", "Beach $(touch x)", "it's", "a:b", "back\\slash"]
        #expect(ShellWord.formatted(names, for: .bash)
                == ["'Beach Trip'", "'Beach $(touch x)'", "'it'\\''s'", "'a:b'", "'back\\slash'"])
        #expect(ShellWord.formatted(names, for: .zsh)
                == ["Beach Trip", "Beach $(touch x)", "it's", "a\\:b", "back\\\\slash"])
        #expect(ShellWord.formatted(names, for: .fish) == names)
        #expect(ShellWord.formatted(names, for: nil) == names)
    }

    @Test func candidatesThatCouldActOnATerminalOrSplitALineAreLeftOut() {
        let hostile = ["ok", "new\nline", "tab\there", "esc\u{1B}[31m", "bell\u{07}", "bidi\u{202E}txt", "nel\u{85}x",
                       "sep\u{2028}x", "del\u{7F}"]
        for shell in [CompletionShell.bash, .zsh, .fish] {
            #expect(ShellWord.formatted(hostile, for: shell).count == 1, "\(shell)")
        }
    }

    @Test func theGlobalOptionsOfTheLineAreRead() {
        let plain = GlobalWords(["photoctl", "--socket", "/run/x", "list", "Be"])
        #expect(plain.socket == "/run/x" && plain.serviceUser == nil && !plain.asApp)
        let quoted = GlobalWords(["photoctl", "list", "--socket='/a b/s'", "--as-app", "--service-user", "photod", ""])
        #expect(quoted.socket == "/a b/s" && quoted.serviceUser == "photod" && quoted.asApp)
        #expect(GlobalWords(["photoctl", "list", "--", "--as-app"]) == GlobalWords([]), "after --, words are arguments")
    }

    @Test func pathsAreMadeAbsoluteAsTheShellReadsThem() {
        #expect(AbsolutePath.resolve("Pictures", against: "/home/ann") == "/home/ann/Pictures")
        #expect(AbsolutePath.resolve("./a/../b//c/", against: "/w") == "/w/b/c")
        #expect(AbsolutePath.resolve("../..", against: "/w") == "/")
        #expect(AbsolutePath.resolve("/abs/./x/", against: "/w") == "/abs/x")
        #expect(AbsolutePath.resolve(".", against: "/") == "/")
    }
}
