@testable import FileSystem
import Testing

/// `[library] ignore` patterns (issue 30): fnmatch globs read as .gitignore's basics, checked at
/// config load, and the walk that never lists what they name.
struct IgnoreRulesTests {
    private func rules(_ patterns: [String]) throws -> IgnoreRules { try IgnoreRules(patterns) }

    private func ignored(_ rules: IgnoreRules, _ relative: String, folder: Bool = false) -> Bool {
        rules.ignores(PathBytes("/lib/" + relative), under: PathBytes("/lib"), isFolder: folder)
    }

    @Test func aNamePatternMatchesAtAnyDepthAndTheFoldersAFileIsIn() throws {
        let rules = try rules(["*_original", "Trash"])
        #expect(ignored(rules, "IMG_1.jpg_original"))
        #expect(ignored(rules, "2021/06/IMG_1.jpg_original"))
        #expect(!ignored(rules, "2021/06/IMG_1.jpg"))
        #expect(ignored(rules, "Trash", folder: true))
        #expect(ignored(rules, "a/Trash/b/c.jpg"), "inside an ignored folder")
        #expect(!ignored(rules, "a/Trashcan/c.jpg"))
    }

    @Test func aPatternWithASlashMatchesThePathFromTheRoot() throws {
        let rules = try rules(["2019/raw", "/scans", "*/tmp/*.jpg"])
        #expect(ignored(rules, "2019/raw", folder: true))
        #expect(ignored(rules, "2019/raw/a.nef"))
        #expect(!ignored(rules, "x/2019/raw/a.nef"), "anchored at the root")
        #expect(ignored(rules, "scans/a.jpg"))
        #expect(!ignored(rules, "old/scans/a.jpg"))
        #expect(ignored(rules, "a/tmp/b.jpg"))
        #expect(!ignored(rules, "a/b/tmp/b.jpg"), "* does not cross a /")
    }

    @Test func aTrailingSlashMatchesFoldersOnly() throws {
        let rules = try rules(["cache/"])
        #expect(ignored(rules, "cache", folder: true))
        #expect(ignored(rules, "a/cache/b.jpg"))
        #expect(!ignored(rules, "a/cache"), "a file named cache")
    }

    @Test func aQuestionMarkIsOneCharacterOfAUTF8Name() throws {
        let rules = try rules(["?t?.jpg", "caf[eé]"])
        #expect(ignored(rules, "été.jpg"))
        #expect(ignored(rules, "café", folder: true))
        #expect(!ignored(rules, "ettte.jpg"))
        // A name that is not UTF-8 is still matched, byte by byte.
        #expect(try IgnoreRules(["*_original"]).ignores(name: [0xFF, 0xFE] + Array("_original".utf8), inFolder: [],
                                                        isFolder: false))
    }

    @Test func theRootAndTheFoldersAboveItAreNeverMatched() throws {
        let rules = try rules(["lib", "*"])
        #expect(!rules.ignores(PathBytes("/lib"), under: PathBytes("/lib"), isFolder: true))
        #expect(!rules.ignores(PathBytes("/elsewhere/a.jpg"), under: PathBytes("/lib"), isFolder: false))
        #expect(try !IgnoreRules(["lib"]).ignores(PathBytes("/lib/a.jpg"), under: PathBytes("/lib"), isFolder: false))
    }

    @Test func patternsFnmatchWouldReadOtherwiseAreRefusedNamingThem() {
        let cases: [(String, String)] = [
            ("", "is empty"), ("/", "names no file or folder"), ("a//b", "empty component"),
            ("../x", "\"..\" component"), ("[abc", "\"[\" that is not closed"), ("a\\", "backslash"),
            ("**/x", "\"**\""), ("!keep.jpg", "negation"), ("a\u{7}b", "control character"),
            (String(repeating: "a", count: 1025), "longer than 1024 bytes"),
        ]
        for (pattern, reason) in cases {
            #expect {
                try IgnoreRules(["ok", pattern])
            } throws: { error in
                guard let error = error as? IgnorePatternError else { return false }
                return error.pattern == pattern && error.reason.contains(reason)
            }
        }
        for good in ["[]a]", "[!a]*", "[[:digit:]]*", "\\!x", "a\\*b", "/x/"] {
            #expect(throws: Never.self) { try IgnoreRules([good]) }
        }
    }

    @Test func theDefaultIgnoresExifToolBackupsOnly() {
        #expect(IgnoreRules.defaults.patterns.map(\.text) == ["*_original"])
        #expect(IgnoreRules.defaults.ignores(PathBytes("/l/a.jpg_original"), under: PathBytes("/l"), isFolder: false))
        #expect(!IgnoreRules.defaults.ignores(PathBytes("/l/original.jpg"), under: PathBytes("/l"), isFolder: false))
        #expect(IgnoreRules.none.isEmpty)
    }

    @Test func theWalkNeverListsWhatIsIgnoredAndCountsAsItWalks() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for folder in ["2019/raw", "2020/raw", "a/Trash"] { try tree.makeFolder(folder) }
        for file in ["a.jpg", "a.jpg_original", "2019/raw/x.nef", "2020/raw/y.nef", "a/Trash/z.jpg", "a/b.jpg"] {
            try tree.write(file)
        }
        var walker = DirectoryWalker(root: tree.pathBytes())
        walker.ignoring = try IgnoreRules(["*_original", "/2019/raw", "Trash/"])
        var opened: [String] = []
        walker.beforeListing = { opened.append(String(decoding: $0.bytes, as: UTF8.self)) }
        var walked: [String] = []
        walker.walk(visit: { walked.append(String(decoding: $0.path.bytes.dropFirst(tree.root.utf8.count + 1), as: UTF8.self)) })
        #expect(walked == ["2020/raw/y.nef", "a.jpg", "a/b.jpg"])
        #expect(!opened.contains { $0.hasSuffix("/Trash") || $0.hasSuffix("2019/raw") }, "\(opened)")
        #expect(walker.countFiles { _ in true } == 3)

        // A walk of a folder inside the root takes the patterns' paths from the root.
        var inside = DirectoryWalker(root: tree.pathBytes("2019"))
        inside.ignoring = walker.ignoring
        inside.ignoreBase = tree.pathBytes()
        var below: [PathBytes] = []
        inside.walk(visit: { below.append($0.path) })
        #expect(below.isEmpty)
    }
}
