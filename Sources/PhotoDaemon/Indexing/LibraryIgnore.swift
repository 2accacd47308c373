import FileSystem
import Watcher

/// The `[library] ignore` rules applied to the library's roots: which root a walk's patterns
/// are relative to, and which live actions to drop. Walks skip ignored entries themselves
/// (`DirectoryWalker.ignoring`); this is what the indexer and the watch coverage ask.
struct LibraryIgnore: Sendable {
    let rules: IgnoreRules
    let roots: LibraryRoots

    /// Nothing ignored.
    static let none = LibraryIgnore(rules: .none, roots: LibraryRoots([]))

    /// The root whose patterns apply to `folder`: the root it is in (as it resolves now), else
    /// `folder` itself (a walk of a root).
    func base(for folder: PathBytes) -> PathBytes {
        guard !rules.isEmpty else { return folder }
        return resolvedRoots().first { folder.isSameOrInside($0) } ?? folder
    }

    /// Whether the folder `folder` is ignored, given the roots as they resolve now (`resolvedRoots()`).
    func ignoresFolder(_ folder: PathBytes, roots: [PathBytes]) -> Bool {
        ignores(folder, isFolder: true, roots: roots)
    }

    /// The roots as they resolve now, read once for a batch of questions.
    func resolvedRoots() -> [PathBytes] {
        roots.all.compactMap { $0.resolve() }
    }

    /// `actions` without what concerns ignored paths only. A rename across the line is what it
    /// is for the library: out of it (to an ignored name), a removal, which `LiveUpdater` judges
    /// by what is on disk at the old name (ExifTool's backup: the edited photo took that name
    /// and keeps its id); into it (from an ignored name), an arrival. `unwatch`: folders renamed
    /// to an ignored name, whose watches the decoder moved along with them.
    func filter(_ actions: [WatchAction]) -> (actions: [WatchAction], unwatch: [PathBytes]) {
        guard !rules.isEmpty else { return (actions, []) }
        let roots = resolvedRoots()
        func file(_ path: PathBytes) -> Bool { ignores(path, isFolder: false, roots: roots) }
        func folder(_ path: PathBytes) -> Bool { ignores(path, isFolder: true, roots: roots) }
        var unwatch: [PathBytes] = []
        let kept = actions.compactMap { action -> WatchAction? in
            switch action {
            case .fileWritten(let path), .fileLinked(let path), .fileRemoved(let path), .fileArrived(let path):
                return file(path) ? nil : action
            case .fileMoved(let from, let to):
                switch (file(from), file(to)) {
                case (true, true): return nil
                case (false, true): return .fileRemoved(from)
                case (true, false): return .fileArrived(to)
                case (false, false): return action
                }
            case .directoryCreated(let path), .directoryRemoved(let path):
                return folder(path) ? nil : action
            case .directoryMoved(let from, let to):
                switch (folder(from), folder(to)) {
                case (true, true): return nil
                case (false, true):
                    unwatch.append(to)
                    return .directoryRemoved(from)
                case (true, false): return .directoryCreated(to)
                case (false, false): return action
                }
            case .watchedDirectoryGone, .overflow:
                return action
            }
        }
        return (kept, unwatch)
    }

    /// Whether `path` lies in one of `roots` and is ignored there (itself or a folder it is in).
    private func ignores(_ path: PathBytes, isFolder: Bool, roots: [PathBytes]) -> Bool {
        guard let root = roots.first(where: { path.isInside($0) }) else { return false }
        return rules.ignores(path, under: root, isFolder: isFolder)
    }
}
