import FileSystem

/// The folders a reconcile leaves out of its comparison on both sides: where a drive is away,
/// and those its walk found but could not read. Kept as a sorted list of folder prefixes
/// ("/a/b/") none inside another, so whether a path lies in one is a binary search rather than
/// a look at each: a library can hold any number of them.
struct LeftOutFolders: Sendable {
    /// Folder prefixes in byte order; none is inside another.
    private var prefixes: [PathBytes] = []

    /// The folders `folders`, in any order.
    init(_ folders: [PathBytes] = []) {
        folders.forEach { add($0) }
    }

    /// Whether no folder was added.
    var isEmpty: Bool { prefixes.isEmpty }

    /// Adds `folder`: one inside a folder already added changes nothing, and one holding folders
    /// already added takes their place.
    mutating func add(_ folder: PathBytes) {
        let prefix = folder.folderPrefix
        guard !holds(prefix) else { return }
        // The prefixes that start with this one come right after it in byte order.
        let start = firstIndex(after: prefix)
        var end = start
        while end < prefixes.count, prefixes[end].bytes.starts(with: prefix.bytes) { end += 1 }
        prefixes.replaceSubrange(start..<end, with: [prefix])
    }

    /// Whether `path` lies inside one of the folders.
    ///
    /// The only prefix that can hold `path` is the greatest one not after it: a prefix between
    /// a holding one and `path` would start with the holding one (so lie inside it, which none
    /// does) or differ from it at an earlier byte, and then come after `path` too.
    func holds(_ path: PathBytes) -> Bool {
        let index = firstIndex(after: path)
        guard index > 0 else { return false }
        return path.bytes.starts(with: prefixes[index - 1].bytes)
    }

    /// The index of the first prefix after `path` in byte order.
    private func firstIndex(after path: PathBytes) -> Int {
        var low = 0
        var high = prefixes.count
        while low < high {
            let middle = (low + high) / 2
            if prefixes[middle].order(path) <= 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
