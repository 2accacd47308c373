import FileSystem
import NIOPosix
import Store
import Watcher

/// What the index holds for the files a run of watcher actions names, read before any of them is
/// judged, so `LiveUpdater` judges them on the file pool with no store call inside.
struct IndexSnapshot: Sendable {
    private var files: [PathBytes: IndexedFile] = [:]
    private var prefixed: [PathBytes: [IndexedFile]] = [:]
    /// Where a file new to its path may already be indexed: a move whose first half nobody saw.
    private(set) var movedFiles = MovedFileFinder(candidates: [])

    /// The indexed file at `path`: nil when there is none, or when the actions never named it.
    func file(at path: PathBytes) -> IndexedFile? {
        files[path]
    }

    /// The indexed files whose path starts with `prefix`, the stem of a sidecar the actions named.
    func files(withPrefix prefix: PathBytes) -> [IndexedFile] {
        prefixed[prefix] ?? []
    }

    /// Reads all `LiveUpdater` may ask about `actions`: the files at every path they name and,
    /// when sidecars are read, the images a named sidecar may describe; and the files on the
    /// inode of any regular file now at a named path. The stats run on `files`.
    static func read(for actions: [WatchAction], from store: Store, sidecars: Bool,
                     files: NIOThreadPool) async throws -> IndexSnapshot {
        let paths = actions.flatMap(Self.paths(named:))
        var exact = paths
        var prefixes: Set<PathBytes> = []
        if sidecars {
            for path in paths where Sidecar.isSidecar(path) {
                let images = Sidecar.images(of: path)
                exact.append(images.exact)
                prefixes.insert(images.stemPrefix)
            }
        }
        let stamps = try await files.runIfActive {
            let opener = SafeOpener()
            return paths.compactMap { path -> FileStamp? in
                guard case .success(let info) = opener.linkStatus(path), info.kind == .regular else { return nil }
                return FileStamp(info)
            }
        }
        // Independent reads, one on each reader thread: a live change waits for the slower only.
        async let candidates = store.read { try $0.indexedFiles(sharingInodeWith: stamps) }
        var snapshot = IndexSnapshot()
        for file in try await store.read({ [exact] in try $0.indexedFiles(at: exact) }) { snapshot.files[file.path] = file }
        for prefix in prefixes {
            let found = try await store.read { try $0.indexedFiles(withPrefix: prefix) }
            snapshot.prefixed[prefix] = found
            for file in found { snapshot.files[file.path] = file }
        }
        snapshot.movedFiles = MovedFileFinder(candidates: try await candidates)
        return snapshot
    }

    private static func paths(named action: WatchAction) -> [PathBytes] {
        switch action {
        case .fileWritten(let path), .fileArrived(let path), .fileRemoved(let path), .fileLinked(let path): [path]
        case .fileMoved(let from, let to): [from, to]
        default: []
        }
    }
}
