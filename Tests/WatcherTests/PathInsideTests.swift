import FileSystem
import Testing

/// "Is this path under that folder", asked of raw bytes, component by component.
@Suite struct PathInsideTests {
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
        #expect(Array(path.utf8).isPathInside(Array(folder.utf8)) == inside)
    }

    @Test func bytesThatAreNotUTF8AreComparedExactly() {
        let folder: [UInt8] = [0x2F, 0xFF, 0xFE]
        #expect(([0x2F, 0xFF, 0xFE, 0x2F, 0x61] as [UInt8]).isPathInside(folder))
        #expect(!([0x2F, 0xFF, 0xFF, 0x2F, 0x61] as [UInt8]).isPathInside(folder))
    }
}
