import Foundation
import FileSystem
import Glibc
import Testing

/// A `NewFile` appears whole under its name or not at all, and never overwrites a file unless told to.
@Suite struct NewFileTests {
    private static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    private static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aNewFileIsHiddenUntilItIsCommittedWhole() throws {
        let tree = try TempTree()
        let file = try NewFile.create(at: PathBytes(tree.path("a.jpg")), refuseExisting: true)
        try file.write(Array("photo".utf8))
        let during = try Self.names(in: tree.root)
        #expect(during.count == 1 && during[0].hasPrefix(".photod-new-"), "the watcher passes hidden names over: \(during)")
        try file.commit()
        #expect(try Self.names(in: tree.root) == ["a.jpg"])
        #expect(try Self.text(tree.path("a.jpg")) == "photo")
    }

    @Test func committingNeverOverwritesAndLeavesNothingBehind() throws {
        let tree = try TempTree()
        try tree.write("a.jpg", "kept")
        #expect(throws: NewFileError.self) { try NewFile.create(at: PathBytes(tree.path("a.jpg")), refuseExisting: true) }
        // Made while the name was free, committed after another writer took it.
        let file = try NewFile.create(at: PathBytes(tree.path("b.jpg")), refuseExisting: true)
        try file.write(Array("late".utf8))
        try tree.write("b.jpg", "first")
        #expect {
            try file.commit()
        } throws: { error in
            guard case NewFileError.exists(let path) = error else { return false }
            return path == PathBytes(tree.path("b.jpg"))
        }
        #expect(try Self.text(tree.path("a.jpg")) == "kept" && Self.text(tree.path("b.jpg")) == "first")
        #expect(try Self.names(in: tree.root) == ["a.jpg", "b.jpg"])
    }

    @Test func numberedCommitsTakeTheFirstFreeName() throws {
        let tree = try TempTree()
        try tree.write("IMG_1.jpg", "one")
        try tree.write("IMG_1 (2).jpg", "two")
        let file = try NewFile.create(at: PathBytes(tree.path("IMG_1.jpg")), refuseExisting: false)
        try file.write(Array("three".utf8))
        #expect(try file.commitNumbered() == PathBytes(tree.path("IMG_1 (3).jpg")))
        #expect(try Self.text(tree.path("IMG_1 (3).jpg")) == "three" && Self.text(tree.path("IMG_1.jpg")) == "one")
        #expect(NewFile.numbered(PathBytes("/p/README"), 2) == PathBytes("/p/README (2)"))
        #expect(NewFile.numbered(PathBytes("/p/a.b.tar"), 4) == PathBytes("/p/a.b (4).tar"))
        #expect(NewFile.numbered(PathBytes("/p.d/x"), 2) == PathBytes("/p.d/x (2)"), "a dot in the folder is no extension")
    }

    @Test func replacingCommitsReplace() throws {
        let tree = try TempTree()
        try tree.write("a.jpg", "old")
        let file = try NewFile.create(at: PathBytes(tree.path("a.jpg")), refuseExisting: false)
        try file.write(Array("new".utf8))
        try file.commitReplacing()
        #expect(try Self.text(tree.path("a.jpg")) == "new")
        #expect(try Self.names(in: tree.root) == ["a.jpg"])
    }

    @Test func moreThanTheLimitIsRefusedAndLeavesNothing() throws {
        let tree = try TempTree()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let payload = [UInt8](repeating: 7, count: 3000)
        #expect(payload.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 3000)
        close(ends[1])
        defer { close(ends[0]) }
        do {
            let file = try NewFile.create(at: PathBytes(tree.path("big.jpg")), refuseExisting: true)
            #expect(throws: NewFileError.self) { try file.copy(from: ends[0], limit: 2999) }
        }
        #expect(try Self.names(in: tree.root).isEmpty, "the unfinished file went away with its NewFile")
    }

    @Test func aCopyUpToTheLimitIsWhole() throws {
        let tree = try TempTree()
        try tree.write("source", String(repeating: "x", count: 5000))
        let source = open(tree.path("source"), O_RDONLY)
        defer { close(source) }
        let file = try NewFile.create(at: PathBytes(tree.path("copy")), refuseExisting: true)
        #expect(try file.copy(from: source, limit: 5000) == 5000)
        try file.commit()
        #expect(try Self.text(tree.path("copy")).count == 5000)
    }
}
