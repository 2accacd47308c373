import Foundation
@testable import FileSystem
import Testing

/// The walk reports files in path order (the byte order of full paths, as an index keyed by path
/// keeps them), so a reconcile can compare the two as they go. (FileSystem has no test target of
/// its own; WatcherTests can import it through Watcher.)
@Suite("Directory walk: path order")
struct WalkOrderTests {
    @Test("files come in the byte order of their paths, a folder's files where \"name/\" sorts")
    func pathOrder() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        // "b.jpg" < "b/…" < "b0.jpg" < "bA" < "b_" in bytes ('.' 0x2E, '/' 0x2F, '0' 0x30, 'A' 0x41, '_' 0x5F);
        // a name with a byte above ASCII sorts last, and hidden entries are skipped.
        for folder in ["b", "b/c", "bA", "é"] { try tree.makeFolder(folder) }
        for file in ["b.jpg", "b/x.jpg", "b/c/y.jpg", "b/c.jpg", "b0.jpg", "bA/z.jpg", "b_", "a", "é/1.jpg",
                     ".hidden.jpg", "b/.cache"] {
            try tree.write(file)
        }
        try FileManager.default.createSymbolicLink(atPath: tree.path("b/link.jpg"), withDestinationPath: tree.path("a"))
        var walked: [[UInt8]] = []
        DirectoryWalker(root: tree.bytes()).walk(visit: { walked.append($0.path) })
        let expected = ["a", "b.jpg", "b/c.jpg", "b/c/y.jpg", "b/x.jpg", "b0.jpg", "bA/z.jpg", "b_", "é/1.jpg"].map(tree.bytes)
        #expect(walked == expected, "\(walked.map { String(decoding: $0, as: UTF8.self) })")
        #expect(walked == walked.sorted { $0.pathOrder($1) < 0 })
        #expect(DirectoryWalker(root: tree.bytes()).countFiles { _ in true } == expected.count)
        #expect(DirectoryWalker(root: tree.bytes()).countFiles { $0.last == UInt8(ascii: "g") } == 7)
    }

    @Test("each file comes with its folder's listing, where its siblings are found by name")
    func siblings() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("trip")
        for file in ["trip/1.jpg", "trip/1.jpg.xmp", "trip/2.jpg"] { try tree.write(file, file) }
        var cursor = DirectoryWalker(root: tree.bytes()).start()
        let step = cursor.next(upTo: 10)
        #expect(step.isLast)
        let first = try #require(step.entries.first)
        let folder = try #require(first.folder)
        #expect(folder.file(named: Array("1.jpg.xmp".utf8))?.size == Int64("trip/1.jpg.xmp".utf8.count))
        #expect(folder.file(named: Array("2.jpg".utf8)) != nil)
        #expect(folder.file(named: Array("3.jpg".utf8)) == nil)
        #expect(folder.file(named: Array("1".utf8)) == nil)
    }

    @Test("a cursor pulled a few files at a time walks the same files, in the same order")
    func pulledInSteps() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for folder in 0..<4 {
            try tree.makeFolder("f\(folder)/inner")
            for file in 0..<5 {
                try tree.write("f\(folder)/\(file).jpg")
                try tree.write("f\(folder)/inner/\(file).jpg")
            }
        }
        var whole: [[UInt8]] = []
        DirectoryWalker(root: tree.bytes()).walk(visit: { whole.append($0.path) })
        var cursor = DirectoryWalker(root: tree.bytes()).start()
        var pulled: [[UInt8]] = []
        while true {
            let step = cursor.next(upTo: 3)
            #expect(step.entries.count <= 3)
            pulled += step.entries.map(\.path)
            if step.isLast { break }
        }
        #expect(whole.count == 40)
        #expect(pulled == whole)
    }
}
