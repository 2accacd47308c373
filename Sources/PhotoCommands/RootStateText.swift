import PhotoAPI

/// How `photoctl status` words a root's or a mount's state: "watching", "polling every 30 s",
/// "stalled" (its file system does not answer), or the root's state as it is.
enum RootStateText {
    /// The STATE cell of a root.
    static func of(_ root: Root) -> String {
        if root.stalled == true { return "stalled" }
        if root.state == .polling, let interval = root.pollInterval { return "polling every \(interval) s" }
        return root.state.rawValue
    }

    /// The STATE cell of a mount inside a root.
    static func of(_ mount: RootMount) -> String {
        if mount.stalled == true { return "stalled" }
        if let interval = mount.pollInterval { return "polling every \(interval) s" }
        return "watching"
    }

    /// The table rows of `root`: its own, then one per mount inside it (no photo count: the
    /// root's includes them), each naming its file system.
    static func rows(_ root: Root) -> [[Output.Cell]] {
        var rows: [[Output.Cell]] = [[.path(root.path), .text(of(root)), .text(String(root.assets))]]
        for mount in root.mounts ?? [] {
            rows.append([.path(mount.path), .text("\(of(mount)) (\(mount.fileSystem) mount)"), .missing])
        }
        return rows
    }
}
