import FileSystem
import PhotoAPI
import Store

extension PolledMounts {
    /// `root` with what is known of its file system and the mounts inside it: a polled root says
    /// polling (once its reconcile is over), its interval, whether it answers and its last pass.
    /// A limited app learns nothing of the mounts.
    func describe(_ root: Root, limited: Bool) -> Root {
        var root = root
        guard !limited, let folder = rootFolder(root.path) else { return root }
        let interval = interval(ofRoot: root.path)
        root.fileSystem = folder.fileSystem
        if folder.polled {
            root.pollInterval = interval
            root.stalled = isStalled(folder.path)
            root.lastPass = lastPass(folder.path).map(Self.describe)
            if root.state == .watching { root.state = .polling }
        }
        let inside = mounts(inside: root.path).map { mount in
            RootMount(path: mount.path.description, fileSystem: mount.fileSystem,
                      pollInterval: mount.polled ? interval : nil, stalled: mount.polled ? isStalled(mount.path) : nil,
                      lastPass: mount.polled ? lastPass(mount.path).map(Self.describe) : nil)
        }
        root.mounts = inside.isEmpty ? nil : inside
        return root
    }

    /// A pass as Status says it: its time to the millisecond, a delayed wait in whole seconds,
    /// rounded up so that it is never said to come sooner than it does.
    static func describe(_ pass: PassCost) -> PollPass {
        let milliseconds = pass.spent / .milliseconds(1)
        return PollPass(ended: ISOTime.utcString(nanoseconds: pass.endedNanoseconds),
                        seconds: (milliseconds.rounded() / 1000), files: pass.files,
                        delayedInterval: pass.delayedWait.map { Int(($0 / .seconds(1)).rounded(.up)) })
    }
}
