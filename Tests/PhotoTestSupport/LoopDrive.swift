import Foundation

/// A small ext4 file system in an image file, on a loop device of its own, for tests of a
/// drive that is unmounted and mounted again (needs root). Its loop device stays attached
/// between mounts, so the drive keeps its device number as a real one does.
public final class LoopDrive: @unchecked Sendable {
    /// The loop device (`/dev/loopN`).
    public let device: String
    private let image: String
    private let mounted = Mutexed<[String]>([])
    private let detached = Mutexed(false)

    /// True when this process may mount (it runs as root), and loop devices, mkfs.ext4 and
    /// losetup are there.
    public static var canMount: Bool {
        getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/loop-control")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.ext4")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/losetup")
    }

    /// Makes an empty ext4 image of `megabytes` at `image` and attaches it to a free loop device.
    public init(image: String, megabytes: Int = 16) async throws {
        self.image = image
        try await Self.run("/usr/bin/truncate", ["-s", "\(megabytes)M", image])
        try await Self.run("/usr/sbin/mkfs.ext4", ["-q", "-F", image])
        device = try await Self.run("/usr/sbin/losetup", ["-f", "--show", image]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Mounts the drive at `folder` (which must exist).
    public func mount(at folder: String) async throws {
        try await Self.run("/usr/bin/mount", [device, folder])
        mounted.update { $0.append(folder) }
    }

    /// Unmounts the drive from `folder`; the folder stays, empty, as a mount point does.
    public func unmount(_ folder: String) async throws {
        try await Self.run("/usr/bin/umount", [folder])
        mounted.update { $0.removeAll { $0 == folder } }
    }

    /// Makes a new, empty ext4 file system on the (unmounted) device: another drive, with its
    /// own UUID, at the same device number, as another stick in the same port would be.
    public func reformat() async throws {
        try await Self.run("/usr/sbin/mkfs.ext4", ["-q", "-F", device])
    }

    /// Unmounts it wherever it is still mounted and detaches the loop device; safe to call twice.
    public func detach() async {
        for folder in mounted.withLock({ $0.reversed() }) {
            _ = try? await ProcessRunner.run("/usr/bin/umount", ["-l", folder])
        }
        mounted.set([])
        guard detached.withLock({ done in defer { done = true }; return !done }) else { return }
        _ = try? await ProcessRunner.run("/usr/sbin/losetup", ["-d", device])
    }

    deinit {
        // A test that did not detach gets it done by a task: deinit cannot await.
        guard !detached.get() else { return }
        let commands = mounted.get().reversed().map { ("/usr/bin/umount", ["-l", $0]) } + [("/usr/sbin/losetup", ["-d", device])]
        Task {
            for (program, arguments) in commands { _ = try? await ProcessRunner.run(program, arguments) }
        }
    }

    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) async throws -> String {
        let result = try await ProcessRunner.run(program, arguments)
        guard result.status == 0 else {
            throw LoopDriveError(command: ([program] + arguments).joined(separator: " "), output: result.stderr)
        }
        return result.stdout
    }
}

/// A mount command failed.
public struct LoopDriveError: Error, CustomStringConvertible {
    public let command: String
    public let output: String

    public var description: String { "\(command) failed: \(output)" }
}
