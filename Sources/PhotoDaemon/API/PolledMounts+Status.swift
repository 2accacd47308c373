import PhotoAPI

extension PolledMounts {
    /// `root` with what is known of its file system and the mounts inside it: a polled root says
    /// polling (once its reconcile is over), its interval and whether it answers. A limited app
    /// learns nothing of the mounts.
    func describe(_ root: Root, limited: Bool) -> Root {
        var root = root
        guard !limited, let folder = rootFolder(root.path) else { return root }
        let interval = interval(ofRoot: root.path)
        root.fileSystem = folder.fileSystem
        if folder.polled {
            root.pollInterval = interval
            root.stalled = isStalled(folder.path)
            if root.state == .watching { root.state = .polling }
        }
        let inside = mounts(inside: root.path).map { mount in
            RootMount(path: mount.path.description, fileSystem: mount.fileSystem,
                      pollInterval: mount.polled ? interval : nil, stalled: mount.polled ? isStalled(mount.path) : nil)
        }
        root.mounts = inside.isEmpty ? nil : inside
        return root
    }
}
