import FileSystem
import Foundation

/// A temporary folder under /tmp, removed by `remove()`.
struct TempTree {
    /// The folder's canonical absolute path.
    let root: String

    init() throws {
        let made = "/tmp/photod-watcher-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
        root = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
    }

    /// The absolute path of `relative` inside the tree.
    func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

    /// The absolute byte path of `relative` inside the tree.
    func pathBytes(_ relative: String = "") -> PathBytes { PathBytes(path(relative)) }

    /// Creates the folder `relative` (and its parents).
    func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// Writes `contents` to `relative` (open, write, close).
    func write(_ relative: String, _ contents: String = "x") throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path(relative)))
    }

    /// Removes the whole tree.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
