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
        var walked: [PathBytes] = []
        DirectoryWalker(root: tree.pathBytes()).walk(visit: { walked.append($0.path) })
        let expected = ["a", "b.jpg", "b/c.jpg", "b/c/y.jpg", "b/x.jpg", "b0.jpg", "bA/z.jpg", "b_", "é/1.jpg"].map(tree.pathBytes)
        #expect(walked == expected, "\(walked.map { String(decoding: $0.bytes, as: UTF8.self) })")
        #expect(walked == walked.sorted { $0 < $1 })
        #expect(DirectoryWalker(root: tree.pathBytes()).countFiles { _ in true } == expected.count)
        #expect(DirectoryWalker(root: tree.pathBytes()).countFiles { $0.last == UInt8(ascii: "g") } == 7)
    }

    @Test("a walk that does not stat files names the same files in the same order, and no symlink")
    func unstatedWalk() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for folder in ["b", "b/c", "bA"] { try tree.makeFolder(folder) }
        for file in ["b.jpg", "b/x.jpg", "b/c/y.jpg", "b/c.jpg", "b0.jpg", "bA/z.jpg", "a", ".hidden.jpg"] {
            try tree.write(file, file)
        }
        try FileManager.default.createSymbolicLink(atPath: tree.path("b/link.jpg"), withDestinationPath: tree.path("a"))
        try FileManager.default.createSymbolicLink(atPath: tree.path("bA/linked"), withDestinationPath: tree.path("b"))
        func walk(statingFiles: Bool) -> [DirectoryWalker.Entry] {
            var cursor = DirectoryWalker(root: tree.pathBytes()).start(statingFiles: statingFiles)
            var entries: [DirectoryWalker.Entry] = []
            while true {
                let step = cursor.next(upTo: 3)
                entries += step.entries
                if step.isLast { return entries }
            }
        }
        let stated = walk(statingFiles: true)
        let named = walk(statingFiles: false)
        #expect(named.map(\.path) == stated.map(\.path))
        #expect(stated.count == 7)
        #expect(named.allSatisfy { $0.info == .unstated })
        #expect(stated.allSatisfy { $0.info.size > 0 && $0.info.inode != 0 })
    }

    @Test("each file comes with its folder's listing, where its siblings are found by name")
    func siblings() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("trip")
        for file in ["trip/1.jpg", "trip/1.jpg.xmp", "trip/2.jpg"] { try tree.write(file, file) }
        var cursor = DirectoryWalker(root: tree.pathBytes()).start()
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
        var whole: [PathBytes] = []
        DirectoryWalker(root: tree.pathBytes()).walk(visit: { whole.append($0.path) })
        var cursor = DirectoryWalker(root: tree.pathBytes()).start()
        var pulled: [PathBytes] = []
        while true {
            let step = cursor.next(upTo: 3)
            #expect(step.entries.count <= 3)
            pulled += step.entries.map(\.path)
            if step.isLast { break }
        }
        #expect(whole.count == 40)
        #expect(pulled == whole)
    }

    @Test("walks of the ranges a tree is split into are the whole walk, in order, and keep their siblings")
    func splitWalks() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for year in 2010..<2017 {
            for month in 1...3 {
                try tree.makeFolder("\(year)/\(month)")
                for file in 0..<3 { try tree.write("\(year)/\(month)/\(file).jpg") }
            }
            try tree.write("\(year).jpg")
            try tree.write("\(year).xmp")
        }
        var whole: [PathBytes] = []
        DirectoryWalker(root: tree.pathBytes()).walk(visit: { whole.append($0.path) })
        for parts in 1...5 {
            let ranges = DirectoryWalker(root: tree.pathBytes()).split(into: parts)
            #expect(ranges.count == parts)
            #expect(ranges.first?.low == nil && ranges.last?.high == nil)
            var joined: [PathBytes] = []
            var counted = 0
            for range in ranges {
                DirectoryWalker(root: tree.pathBytes(), range: range).walk(visit: { entry in
                    joined.append(entry.path)
                    #expect(range.contains(entry.path))
                    // A file's folder listing holds its siblings even past the range's ends.
                    if entry.path.bytes.last == UInt8(ascii: "g"), entry.path.bytes.count == tree.pathBytes("2010.jpg").bytes.count {
                        #expect(entry.folder?.file(named: Array(entry.path.bytes.suffix(8)).dropLast(3) + Array("xmp".utf8)) != nil)
                    }
                })
                counted += DirectoryWalker(root: tree.pathBytes(), range: range).countFiles { _ in true }
            }
            #expect(joined == whole, "\(parts) parts")
            #expect(counted == whole.count)
        }
    }

    @Test("a tree with a single folder at its top is split below it")
    func splitBelowASingleFolder() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for folder in ["Photos/a", "Photos/b"] {
            try tree.makeFolder(folder)
            try tree.write(folder + "/1.jpg")
        }
        let ranges = DirectoryWalker(root: tree.pathBytes()).split(into: 2)
        #expect(ranges == [PathRange(low: nil, high: tree.pathBytes("Photos/b/")), PathRange(low: tree.pathBytes("Photos/b/"), high: nil)])
        #expect(DirectoryWalker(root: tree.pathBytes("Photos/a")).split(into: 2).count == 1)
    }
}
