import Foundation
import Logging

/// Opens `photoctl permissions prompt` in the user's terminal for Choose….
///
/// Through `systemd-run --user --collect` when it works, so the terminal (and the shell the
/// owner may open from it) runs as a unit of its own, not inside photod-notify's sandbox;
/// otherwise directly. Either child is waited for (Foundation's `Process` reaps it).
struct TerminalLauncher: Sendable {
    let logger: Logger
    /// The PATH searched for `x-terminal-emulator` and `systemd-run`.
    let path: String?

    /// Starts `x-terminal-emulator -e PROMPT…` in the background; false when there is no terminal.
    func open(prompt: [String]) -> Bool {
        guard let terminal = Self.find("x-terminal-emulator", path: path) else { return false }
        let command = [terminal, "-e"] + prompt
        let systemdRun = Self.find("systemd-run", path: path)
        let logger = logger
        Task.detached {
            if let systemdRun {
                let status = await Self.run(systemdRun, ["--user", "--collect", "--quiet", "--"] + command)
                if status == 0 { return }
                logger.debug("systemd-run --user did not start the terminal; starting it directly",
                             metadata: ["status": "\(status.map(String.init) ?? "not started")"])
            }
            let status = await Self.run(terminal, Array(command.dropFirst()))
            if status != 0 {
                logger.warning("the terminal for Choose… failed", metadata: [
                    "terminal": "\(terminal)", "status": "\(status.map(String.init) ?? "not started")"])
            }
        }
        return true
    }

    /// The executable `name` in the first PATH folder that has one.
    static func find(_ name: String, path: String?) -> String? {
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + name
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Runs `executable` and waits for its exit status; nil when it could not be started.
    private static func run(_ executable: String, _ arguments: [String]) async -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        return await withCheckedContinuation { (done: CheckedContinuation<Int32?, Never>) in
            process.terminationHandler = { done.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                done.resume(returning: nil)
            }
        }
    }
}
