#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds a program the way a shell does, for code that starts one with posix_spawn (which does
/// not search PATH).
public enum ExecutablePath {
    /// `name` itself when it holds a slash, else the executable `name` in the first PATH folder
    /// that has one; nil when there is none.
    public static func find(_ name: String, path: String?) -> String? {
        if name.contains("/") { return isExecutable(name) ? name : nil }
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + name
            if isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a regular file this process may execute.
    private static func isExecutable(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
