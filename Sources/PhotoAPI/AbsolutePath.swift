/// A path as a person typed it, made absolute the way a shell's `cd` reads it: photod's
/// `--root` and photoctl's `rescan PATH` mean the folder relative to where the command ran.
public enum AbsolutePath {
    /// `path` resolved against `directory` (itself absolute) when relative, with `.`, `..`,
    /// repeated and trailing slashes taken out by the text alone: a symlink is not followed, so
    /// `..` after one goes back up the path as written, as in the shell.
    public static func resolve(_ path: String, against directory: String) -> String {
        let full = path.hasPrefix("/") ? path : directory + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
