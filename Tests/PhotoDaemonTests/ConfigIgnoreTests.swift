import FileSystem
import Testing
@testable import PhotoDaemon

/// `[library] ignore` in the config (issue 30): the default, a list that replaces it, bad
/// patterns refused naming them, and an import folder it would leave out refused.
struct ConfigIgnoreTests {
    private let config = ConfigText()

    @Test func theDefaultIgnoresExifToolBackupsAndAListReplacesIt() throws {
        #expect(try config.load("").ignore == IgnoreRules.defaults)
        #expect(try config.load("[library]\nignore = []\n").ignore.isEmpty)
        #expect(try config.load("[library]\nignore = [\"raw/\"]\n").ignore.patterns.map(\.text) == ["raw/"])
    }

    @Test func aBadPatternOrTooManyAreRefusedNamingThem() throws {
        let bad = try #require(try config.problem("[library]\nignore = [\"ok\", \"a[b\"]\n"))
        #expect(bad.key == "library.ignore")
        #expect(bad.problem == "pattern \"a[b\" has a \"[\" that is not closed")
        let list = (0...256).map { "\"p\($0)\"" }.joined(separator: ", ")
        #expect(try config.problem("[library]\nignore = [\(list)]\n")?.problem == "257 patterns are more than the 256 photod takes")
        #expect(try config.problem("[library]\nignored = []\n")?.key == "library.ignored")
    }

    @Test func anIgnoredImportFolderIsRefused() throws {
        let roots = "roots = [\"/photos\"]\n"
        let problem = try #require(try config.problem(roots + "[library]\nignore = [\"Imported\"]\n"))
        #expect(problem.key == "library.ignore")
        #expect(problem.problem.contains("ignores the import folder \"/photos/Imported/%Y/%m\""), "\(problem.problem)")
        #expect(try config.problem(roots + "[library]\nignore = [\"/Imported/20*\"]\n")?.key == "library.ignore")
        #expect(try config.problem(roots + "[library]\nignore = [\"Imported*.jpg\", \"/other\"]\n") == nil)
        #expect(try config.problem(roots + "[import]\nfolder = \"/photos/In/%Y\"\n[library]\nignore = [\"Imported\"]\n") == nil)
    }
}
