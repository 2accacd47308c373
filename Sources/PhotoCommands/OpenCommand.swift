import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// `photoctl open ID`: shows a photo in the desktop's default viewer (xdg-open); over `--host`, a
/// private copy of its original fetched through the bridge (OpenCommand+Remote).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a photo in the desktop's default viewer.",
        discussion: """
            Runs xdg-open (from xdg-utils) on the photo's file, its exact path even when that is \
            not UTF-8. Exit status 1 when the id is not in the library, xdg-open is not \
            installed, or it fails. With --host, the original is fetched into a private copy \
            (0600, in $XDG_RUNTIME_DIR/photoctl-open or the temporary folder) and the copy is \
            opened: edits to it do not reach the library. Copies are removed a day later.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("An asset id, as printed by `photoctl list`, or the photo's file.", valueName: "id|path"),
              completion: LibraryCompletion.assets)
    var photo: String

    func run() async throws {
        // The viewer runs here, and the photo's path names a file on the other machine.
        if let host = global.remoteHost {
            return try await self.openCopy(from: host)
        }
        let client = try await global.connect()
        let id = try await AssetArguments.ids(of: [photo], client: client)[0]
        let reply = try await client.getAssets(ids: [id])
        await client.close()
        guard let asset = reply.assets.first else {
            Output.error("photoctl: not in the library: \(id)")
            throw ExitCode.failure
        }
        try Self.show(asset.exactPath)
    }

    /// Runs xdg-open on `path` (exact bytes); exit status 1, said, when it is missing or fails.
    static func show(_ path: [UInt8]) throws {
        guard let viewer = ProgramRunner.find("xdg-open") else {
            Output.error("photoctl: xdg-open is not installed (not found on PATH); install xdg-utils "
                         + "(apt install xdg-utils) to open photos in the desktop's viewer")
            throw ExitCode.failure
        }
        // Absolute, so xdg-open cannot take it for an option; bytes, so a non-UTF-8 name survives.
        do {
            if let failure = ProgramRunner.describe(waitStatus: try ProgramRunner.run(viewer, [path])) {
                Output.error("photoctl: \(viewer) \(failure)")
                throw ExitCode.failure
            }
        } catch let error as ProgramRunError {
            Output.error("photoctl: \(error)")
            throw ExitCode.failure
        }
    }
}
