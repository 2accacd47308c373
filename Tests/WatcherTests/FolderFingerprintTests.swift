import Foundation
@testable import FileSystem
import Testing

/// `FolderFingerprint` and the walk that lists folders whole (`Cursor.nextFolder()`).
@Suite struct FolderFingerprintTests {
    private static let file = FileInfo(kind: .regular, device: 3, inode: 41, size: 5_000, mtimeNs: 1_700_000_000_000_000_000)

    private static func fingerprint(_ files: [([UInt8], FileInfo)], seed: UInt64 = 7) -> FolderFingerprint {
        var fingerprint = FolderFingerprint()
        for (name, info) in files { fingerprint.add(name: name, info: info, seed: seed) }
        return fingerprint
    }

    @Test func itIsTheSameInAnyOrderAndSurvivesItsBytes() throws {
        let files = (0..<20).map { (Array("IMG_\($0).jpg".utf8), FileInfo(kind: .regular, device: 3, inode: UInt64($0 + 1),
                                                                           size: 100, mtimeNs: 9)) }
        let fingerprint = Self.fingerprint(files)
        #expect(Self.fingerprint(files.reversed()) == fingerprint)
        #expect(Self.fingerprint(files.shuffled()) == fingerprint)
        #expect(fingerprint.files == 20)
        #expect(FolderFingerprint(bytes: fingerprint.bytes) == fingerprint)
        #expect(FolderFingerprint(bytes: Array(fingerprint.bytes.dropLast())) == nil)
    }

    /// Each thing a reconcile compares a file by changes it: its name, identity, size and time,
    /// and the seed (what else decides how files are read).
    @Test func anyChangeToAFileOrTheSeedChangesIt() {
        let name = Array("a.jpg".utf8)
        let base = Self.fingerprint([(name, Self.file)])
        var changed: [FolderFingerprint] = []
        for edit in 0..<5 {
            var info = Self.file
            switch edit {
            case 0: info.device += 1
            case 1: info.inode += 1
            case 2: info.size += 1
            case 3: info.mtimeNs += 1
            default: break
            }
            changed.append(Self.fingerprint([(edit == 4 ? Array("b.jpg".utf8) : name, info)]))
        }
        changed.append(Self.fingerprint([(name, Self.file)], seed: 8))
        changed.append(Self.fingerprint([(name, Self.file), (Array("a.jpg.xmp".utf8), Self.file)]))
        changed.append(FolderFingerprint())
        for other in changed { #expect(other != base) }
        #expect(Set(changed.map(\.sum)).count == changed.count)
    }

    /// Split in ranges, the walks hand over every folder (the one they are split in to both),
    /// hidden ones not, each listing's files stat-ed.
    @Test func rangesOfAFolderWalkListEveryFolderOnce() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        for folder in ["2019", "2019/01", "2020", "2020/07", "2021", ".cache"] { try tree.makeFolder(folder) }
        for file in ["2019/01/a.jpg", "2019/b.jpg", "2020/07/c.jpg", "2021/d.jpg", "top.jpg", ".cache/x.jpg"] {
            try tree.write(file)
        }
        let walker = DirectoryWalker(root: tree.pathBytes())
        var listed: [PathBytes] = []
        var fingerprinted = 0
        for range in walker.split(into: 2) {
            var cursor = DirectoryWalker(root: tree.pathBytes(), range: range).startListingFolders()
            while let listing = cursor.nextFolder() {
                listed.append(listing.folderPrefix)
                if let fingerprint = listing.fingerprint(seed: 1), fingerprint.files > 0 { fingerprinted += 1 }
            }
            #expect(cursor.takeFailures().isEmpty)
        }
        let folders = ["", "2019", "2019/01", "2020", "2020/07", "2021"].map { tree.pathBytes($0).folderPrefix }
        #expect(Set(listed) == Set(folders))
        #expect(listed.count == folders.count + 1, "the root is listed by both ranges")
        #expect(fingerprinted == 6, "the root twice, 2019, 2019/01, 2020/07 and 2021")
    }
}
