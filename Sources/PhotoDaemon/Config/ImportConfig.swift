/// `[import]`: where photos added through `Import` go, and how large one may be.
public struct ImportConfig: Sendable, Equatable {
    /// The folder template (`%Y`, `%m`, `%d` from the date taken); nil: `Imported/%Y/%m` in the first root.
    public var folder: String?
    /// The most bytes one imported photo may have.
    public var maxBytes = 512 << 20

    /// The defaults `config/photod.toml` documents.
    public init() {}

    /// The template in effect for `roots` (the configured roots, first first).
    func template(roots: [String]) -> String {
        if let folder { return folder }
        // A root's own "%" is a literal one in the template.
        let first = (roots.first ?? "/").replacing("%", with: "%%")
        return (first.hasSuffix("/") ? first : first + "/") + "Imported/%Y/%m"
    }

    /// Whether `template` lies inside one of `roots` (a root's own "%" written "%%" in it), so
    /// what is imported is indexed.
    static func isInside(_ template: String, roots: [String]) -> Bool {
        roots.contains { root in
            let folder = root.replacing("%", with: "%%")
            let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            return template == trimmed || template.hasPrefix(trimmed == "/" ? "/" : trimmed + "/")
        }
    }
}
