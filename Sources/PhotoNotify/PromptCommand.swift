import FileSystem

/// The photoctl command line that answers a request in a terminal (`Choose…`), and the text of
/// the commands a notification names when it cannot offer buttons.
public enum PromptCommand {
    /// Whether `id` can be passed through a terminal's `-e` unharmed: some terminal wrappers
    /// hand those arguments to a shell, so only letters, digits and `._/:+@-` are passed, and
    /// never a leading `-` that a parser could take for an option.
    public static func isSafe(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, first != "-" else { return false }
        return id.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "/", ":", "+", "@", "-": true
            default: false
            }
        }
    }

    /// `photoctl permissions prompt --app ID --uid UID`, or plain `photoctl permissions prompt`
    /// (which asks about every waiting app) when the id is not safe to pass; for a pick,
    /// `photoctl pick` the same way (the picker).
    public static func arguments(photoctl: String, app: AppKey) -> [String] {
        let prompt = app.pick != nil ? [photoctl, "pick"] : [photoctl, "permissions", "prompt"]
        guard isSafe(app.id) else { return prompt }
        return prompt + ["--app", app.id, "--uid", String(app.uid)]
    }

    /// The prompt command as a person would type it (photoctl by name), for a notification's text.
    public static func text(for app: AppKey) -> String {
        arguments(photoctl: "photoctl", app: app).joined(separator: " ")
    }

    /// The photoctl to run: beside `executable` (photod-notify itself), else in `../../bin`
    /// from it (`/usr/libexec/photod` → `/usr/bin`), else `photoctl` found on PATH.
    public static func photoctl(besides executable: String, isExecutable: (String) -> Bool) -> String {
        let folder = parent(of: executable)
        let candidates = [folder + "/photoctl", parent(of: parent(of: folder)) + "/bin/photoctl"]
        return candidates.first(where: isExecutable) ?? "photoctl"
    }

    /// The folder part of an absolute path ("/" for a top-level name).
    static func parent(of path: String) -> String {
        PathBytes(path).parent?.description ?? "/"
    }
}
