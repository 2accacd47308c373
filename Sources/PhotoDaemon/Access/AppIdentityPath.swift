/// Lexical path helpers for identities: no file system access, so a later rename cannot change an id.
enum AppIdentityPath {
    /// The suffix the kernel appends to a /proc link whose target was deleted.
    static let deletedSuffix = " (deleted)"

    /// A /proc link target without its " (deleted)" suffix, and whether it had one.
    static func strippingDeleted(_ target: String) -> (path: String, deleted: Bool) {
        guard target.hasSuffix(deletedSuffix) else { return (target, false) }
        return (String(target.dropLast(deletedSuffix.count)), true)
    }

    /// `path` made absolute against `cwd` and normalized; nil when it is relative and `cwd` is unknown.
    static func absolute(_ path: String, cwd: String?) -> String? {
        if path.hasPrefix("/") { return normalized(path) }
        guard let cwd = cwd.map({ strippingDeleted($0).path }), cwd.hasPrefix("/") else { return nil }
        return normalized(cwd + "/" + path)
    }

    /// An absolute path with `.`, `..` and repeated or trailing slashes resolved lexically.
    static func normalized(_ absolutePath: String) -> String {
        var components: [Substring] = []
        for component in absolutePath.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The folder an absolute `path` is in ("/" for a file at the top), as NSString's
    /// deletingLastPathComponent says it.
    static func folder(of path: String) -> String {
        let parts = path.split(separator: "/")
        return "/" + parts.dropLast().joined(separator: "/")
    }
}
