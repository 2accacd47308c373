import FileSystem

/// What to say about a configured root whose folder is not there and under which the index holds
/// no photos: nothing was ever kept for it, so "keeping its photos" would mislead; most often the
/// name is mistyped, and the folder meant is a sibling a few letters away.
enum MissingRootHint {
    /// "root PATH does not exist; did you mean SIBLING?" (the suggestion only when a folder in
    /// the existing parent is close), or "root PATH is not a folder" when something else is there.
    static func problem(for root: String) -> String {
        let path = PathBytes(root)
        if case .success(let info) = FileSystem.linkStatus(path), info.kind != .directory {
            return "root \(root) is not a folder"
        }
        guard let parent = path.parent, case .success(let folders) = FileSystem.subdirectories(of: parent) else {
            return "root \(root) does not exist"
        }
        let suggestion = closest(to: root, among: folders.compactMap { String(validating: $0.bytes, as: UTF8.self) })
        return "root \(root) does not exist" + (suggestion.map { "; did you mean \($0)?" } ?? "")
    }

    /// The folder of `folders` (absolute paths, siblings of `root`) whose name is nearest
    /// `root`'s (`SelectionCatalog.closest`: case, one name inside the other, a few edits); nil
    /// when none is close.
    static func closest(to root: String, among folders: [String]) -> String? {
        guard let name = root.split(separator: "/").last.map(String.init) else { return nil }
        let names = folders.compactMap { $0.split(separator: "/").last.map(String.init) }
        guard let nearest = SelectionCatalog.closest(to: name, among: names).first else { return nil }
        return folders.first { $0.hasSuffix("/" + nearest) }
    }
}
