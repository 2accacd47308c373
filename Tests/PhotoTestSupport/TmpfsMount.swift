import Foundation

/// A small tmpfs mounted over a folder for the length of a test body (needs root): a real
/// file system that a test can fill to its last block.
public enum TmpfsMount {
    /// Mounts a tmpfs with `options` (`size=4m`, `mode=0700`) at `folder`, runs `body`, then
    /// unmounts it whether `body` returned or threw.
    public static func with<Result>(at folder: String, options: String,
                                    _ body: () async throws -> Result) async throws -> Result {
        let mounted = try await ProcessRunner.run("/usr/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder])
        guard mounted.status == 0 else { throw TmpfsMountError(output: mounted.stderr) }
        return try await withClosing(folder, close: { folder in
            _ = try? await ProcessRunner.run("/usr/bin/umount", ["-l", folder])
        }) { _ in try await body() }
    }
}

/// mount(8) refused.
public struct TmpfsMountError: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "mount: \(output)" }
}
