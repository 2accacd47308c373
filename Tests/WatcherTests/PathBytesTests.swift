import FileSystem
import Foundation
import Testing

/// The operations on byte paths: "is this inside that folder" component by component, in its two
/// meanings, and parent, last component, extension, appending, rebasing, order and coding.
@Suite struct PathBytesTests {
    @Test(arguments: [
        ("/a/b/c", "/a/b", true),
        ("/a/b/c", "/a/b/", true),
        ("/a/b/c/d", "/a", true),
        ("/a/bc", "/a/b", false),
        ("/a/b", "/a/b", false),
        ("/a/b/", "/a/b", false),
        ("/a", "/a/b", false),
        ("/x/b/c", "/a/b", false),
        ("/a/b/c", "/", true),
    ])
    func componentsNotPrefixes(path: String, folder: String, inside: Bool) {
        #expect(PathBytes(path).isInside(PathBytes(folder)) == inside)
    }

    @Test func bytesThatAreNotUTF8AreComparedExactly() {
        let folder = PathBytes([0x2F, 0xFF, 0xFE])
        #expect(PathBytes([0x2F, 0xFF, 0xFE, 0x2F, 0x61]).isInside(folder))
        #expect(!PathBytes([0x2F, 0xFF, 0xFF, 0x2F, 0x61]).isInside(folder))
    }

    @Test func pathsRespectTheSlashBoundary() {
        #expect(PathBytes("/a/b").isSameOrInside(PathBytes("/a/b")))
        #expect(PathBytes("/a/b/c").isSameOrInside(PathBytes("/a/b")))
        #expect(!PathBytes("/a/bc").isSameOrInside(PathBytes("/a/b")))
        #expect(PathBytes("/a").isSameOrInside(PathBytes("/")))
        #expect(PathBytes("/a/b").parent == PathBytes("/a"))
        #expect(PathBytes("/a").parent == PathBytes("/"))
        #expect(PathBytes("/").parent == nil)
        #expect(PathBytes("/").appending(Array("x".utf8)) == PathBytes("/x"))
        #expect(PathBytes("/a/b/c").rebased(from: PathBytes("/a/b"), to: PathBytes("/z")) == PathBytes("/z/c"))
        #expect(PathBytes("/a/b").rebased(from: PathBytes("/a/b"), to: PathBytes("/z")) == PathBytes("/z"))
    }

    @Test func lastComponentsAndFolderPrefixes() {
        #expect(PathBytes("/a/b").lastComponent == Array("b".utf8))
        #expect(PathBytes("/a/b/").lastComponent == Array("b".utf8))
        #expect(PathBytes("/a/b/").parent == PathBytes("/a"))
        #expect(PathBytes("/").lastComponent.isEmpty)
        #expect(PathBytes("/a").folderPrefix == PathBytes("/a/"))
        #expect(PathBytes("/a/").folderPrefix == PathBytes("/a/"))
        #expect(PathBytes("/a/b").appending(Array("c".utf8)) == PathBytes("/a/b/c"))
    }

    @Test func extensionsAreThoseOfTheLastComponent() {
        #expect(PathBytes("/a/b.jpg").nameExtension.map { Array($0) } == Array("jpg".utf8))
        #expect(PathBytes("/a/b.tar.gz").nameExtension.map { Array($0) } == Array("gz".utf8))
        #expect(PathBytes("/a/.jpg").nameExtension.map { Array($0) } == Array("jpg".utf8))
        #expect(PathBytes("/a.d/b").nameExtension == nil)
        #expect(PathBytes("/a/b").nameExtension == nil)
        #expect(PathBytes("/a/b.jpg").withoutExtension == PathBytes("/a/b"))
        #expect(PathBytes("/a/b.tar.gz").withoutExtension == PathBytes("/a/b.tar"))
        #expect(PathBytes("/a/.hidden").withoutExtension == nil)
        #expect(PathBytes(".hidden").withoutExtension == nil)
        #expect(PathBytes("/a.d/b").withoutExtension == nil)
        #expect(PathBytes("/a/b.jpg").appendingToName(Array(".xmp".utf8)) == PathBytes("/a/b.jpg.xmp"))
        #expect(PathBytes([]).isEmpty && !PathBytes("/").isEmpty)
    }

    @Test func aPathIsCodedAsItsBytesWere() throws {
        let bytes: [UInt8] = [0x2F, 0x61, 0xFF]
        let encoded = try JSONEncoder().encode(PathBytes(bytes))
        #expect(encoded == (try JSONEncoder().encode(bytes)))
        #expect(try JSONDecoder().decode(PathBytes.self, from: encoded) == PathBytes(bytes))
    }

    @Test func byteOrderPutsAPrefixFirst() {
        #expect(PathBytes("/a") < PathBytes("/a/b"))
        #expect(PathBytes("/a/b") < PathBytes("/a0"))
        #expect(PathBytes("/a/z") < PathBytes([0x2F, 0x61, 0x2F, 0xFF]))
        #expect(PathBytes("/a").order(PathBytes("/a")) == 0)
    }
}
