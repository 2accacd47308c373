import FileSystem

extension ImportConfig {
    /// The import folder when `[library] ignore` leaves it out of `roots` (configured, first
    /// first); nil when it is indexed. What an app imports there would get an id, then leave the
    /// index at the next reconcile. The template is judged for one date (its %Y, %m and %d are
    /// digits, which a pattern on a folder's name seldom names).
    func ignoredFolder(roots: [String], ignore: IgnoreRules) -> String? {
        guard !ignore.isEmpty, let folder = try? ImportFolder(template: template(roots: roots)) else { return nil }
        let sample = PathBytes(folder.folder(taken: "2024-06-15T12:00:00", today: "2024-06-15T12:00:00"))
        for root in roots {
            let trimmed = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
            if sample.isInside(PathBytes(trimmed)), ignore.ignores(sample, under: PathBytes(trimmed), isFolder: true) {
                return folder.template
            }
        }
        return nil
    }
}
