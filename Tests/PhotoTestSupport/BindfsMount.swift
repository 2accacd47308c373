import Foundation

/// A bindfs FUSE mount of a folder the test owns, its daemon a child of the test (so the test
/// can stop and continue it): a real file system that inotify cannot see behind.
public final class BindfsMount: @unchecked Sendable {
    /// Where it is mounted.
    public let mountPoint: String
    /// The bindfs daemon, run in the foreground.
    public let daemon: TestChild

    /// Whether bindfs and /dev/fuse are there (Debian's bindfs and fuse3; mounting needs root
    /// or a fuse group in a container).
    public static var canMount: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/bindfs")
            && FileManager.default.fileExists(atPath: "/dev/fuse") && getuid() == 0
    }

    /// Mounts `source` at `mountPoint` and waits until the mount table shows it.
    public init(_ source: String, at mountPoint: String) async throws {
        self.mountPoint = mountPoint
        daemon = try TestChild("/usr/bin/bindfs", ["-f", source, mountPoint], error: .null)
        let mounted = await eventually(within: 10) { Self.isMounted(mountPoint) }
        guard mounted else {
            await daemon.kill()
            throw BindfsMountError(mountPoint: mountPoint)
        }
    }

    /// Whether /proc/self/mountinfo lists a mount at `path`.
    public static func isMounted(_ path: String) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst(4).first.map(String.init) == path }
    }

    /// Stops answering: every request to the mount waits until `resume`.
    public func pause() { daemon.signal(SIGSTOP) }

    /// Answers again.
    public func resume() { daemon.signal(SIGCONT) }

    /// Continues the daemon, unmounts (lazily, should something still be inside) and ends it.
    public func unmount() async {
        resume()
        _ = try? await ProcessRunner.run("/usr/bin/fusermount", ["-u", "-z", mountPoint])
        if await daemon.exited(within: .seconds(5)) == nil { await daemon.kill() }
    }
}

/// bindfs did not mount within 10 s.
public struct BindfsMountError: Error, CustomStringConvertible {
    public let mountPoint: String
    public var description: String { "bindfs did not mount at \(mountPoint)" }
}
