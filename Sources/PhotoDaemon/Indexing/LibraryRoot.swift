import FileSystem

/// A configured library folder and where it resolves on disk right now.
struct LibraryRoot: Sendable, Equatable {
    /// The folder as configured (after "~" expansion), shown to people.
    let configured: String

    /// The canonical path when the folder exists and is a folder, else nil (missing).
    func resolve() -> PathBytes? {
        guard let path = FileSystem.canonicalPath(configuredPath),
              case .success(let info) = FileSystem.linkStatus(path), info.kind == .directory
        else { return nil }
        return path
    }

    /// The folder as configured, as a path: where a root that does not resolve was.
    var configuredPath: PathBytes { PathBytes(configured) }

    /// The canonical path, else the folder as configured.
    func resolveOrConfigured() -> PathBytes { resolve() ?? configuredPath }

    /// Drops roots that lie inside another root, so no file is indexed twice.
    static func distinct(_ paths: [String]) -> [LibraryRoot] {
        var cleaned: [String] = []
        for path in paths {
            var trimmed = path
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
            if !cleaned.contains(trimmed) { cleaned.append(trimmed) }
        }
        return cleaned.filter { candidate in
            !cleaned.contains { other in other != candidate && candidate.hasPrefix(other == "/" ? "/" : other + "/") }
        }.map(LibraryRoot.init(configured:))
    }
}
