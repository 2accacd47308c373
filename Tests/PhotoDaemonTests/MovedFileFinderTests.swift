import FileSystem
import Foundation
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

/// What a reconcile does with a file new at its path, by the assets the index has on its inode.
@Suite struct MovedFileFinderTests {
    private func read(_ path: String) throws -> ReconcilePlan.Read {
        guard case .success(let info) = SafeOpener().linkStatus(PathBytes(path)) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return ReconcilePlan.Read(path: PathBytes(path), stamp: FileStamp(info), id: nil, linked: info.linkCount > 1)
    }

    @Test func aFileIsNewMovedOrHeldByWhereItsAssetIsAndWhetherItsFileLeftThere() throws {
        let folder = try TemporaryDirectory()
        let moved = try read(try folder.write("new/a.jpg", [1, 2, 3]))
        let other = try read(try folder.write("new/b.jpg", [4, 5]))
        let stayed = try read(try folder.write("old/c.jpg", [6]))
        let root = PathBytes(folder.file("new"))
        func asset(_ id: String, _ path: String, _ stamp: FileStamp) -> IndexedFile {
            IndexedFile(id: id, path: PathBytes(folder.file(path)), stamp: stamp)
        }
        var edited = other.stamp
        edited.mtimeNs += 1
        let finder = MovedFileFinder(candidates: [
            asset("a", "old/a.jpg", moved.stamp),  // outside the root, and its file left: moved
            asset("b", "old/b.jpg", edited),  // same inode, other bytes: a reused inode
            asset("c", "old/c.jpg", stayed.stamp),  // still at its path: the new name is a second one
        ])
        let opener = SafeOpener()
        #expect(finder.verdict(for: moved, root: root, opener: opener) == .moved(asset("a", "old/a.jpg", moved.stamp)))
        #expect(finder.verdict(for: other, root: root, opener: opener) == .new)
        var secondName = stayed
        secondName.path = PathBytes(folder.file("new/c.jpg"))
        #expect(finder.verdict(for: secondName, root: root, opener: opener) == .new)
        // Under the root being reconciled: adopted when its path holds no file; a path that holds
        // another file keeps its asset (the walk reads that file under the asset's id).
        let inside = MovedFileFinder(candidates: [asset("a", "new/sub/a.jpg", moved.stamp), asset("b", "new/a.jpg", other.stamp)])
        #expect(inside.verdict(for: moved, root: root, opener: opener) == .moved(asset("a", "new/sub/a.jpg", moved.stamp)))
        var replaced = other
        replaced.path = PathBytes(folder.file("new/elsewhere/b.jpg"))
        #expect(inside.verdict(for: replaced, root: root, opener: opener) == .new)
        #expect(inside.asset(for: other.stamp, opener: opener) == asset("b", "new/a.jpg", other.stamp),
                "outside any reconcile (a live move), a replaced path does not hold the asset")
        var linked = moved
        linked.linked = true
        #expect(finder.verdict(for: linked, root: root, opener: opener) == .held, "a file with two names is adopted once, at the end")
    }
}
