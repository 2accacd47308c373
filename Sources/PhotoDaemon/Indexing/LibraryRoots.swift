import FileSystem
import Synchronization

/// The configured roots, shared by the indexer (which replaces them on a reload), the watch
/// coverage and the API; one list, so none of them can disagree about what the library is.
final class LibraryRoots: Sendable {
    private let list: Mutex<[LibraryRoot]>

    /// The roots `configured`, in order.
    init(_ roots: [LibraryRoot]) {
        list = Mutex(roots)
    }

    /// The roots now.
    var all: [LibraryRoot] { list.withLock { $0 } }

    /// Makes `new` the roots; returns the ones it replaced.
    func replace(with new: [LibraryRoot]) -> [LibraryRoot] {
        list.withLock { roots in
            defer { roots = new }
            return roots
        }
    }

    /// The root that is `path`, by its resolved or its configured path.
    func root(at path: PathBytes) -> LibraryRoot? {
        all.first { $0.resolve() == path || $0.configuredPath == path }
    }

    /// The root a person named: as configured (a trailing slash aside), or by any absolute path
    /// to the same folder (through symlinks, `..`). A relative name means nothing here: the
    /// client resolves it against its own working folder first.
    func root(named name: String) -> LibraryRoot? {
        var trimmed = name
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if let root = all.first(where: { $0.configured == trimmed }) { return root }
        guard trimmed.hasPrefix("/"), let canonical = FileSystem.canonicalPath(PathBytes(trimmed)) else { return nil }
        return root(at: canonical)
    }
}
