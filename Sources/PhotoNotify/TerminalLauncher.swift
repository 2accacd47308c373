import Posix
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Opens `photoctl permissions prompt` in the user's terminal for Choose….
///
/// Through `systemd-run --user --collect` when it works, so the terminal (and the shell the
/// owner may open from it) runs as a unit of its own, not inside photod-notify's sandbox;
/// otherwise directly. Either child is waited for (`run` reaps it).
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
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT != S_IFDIR, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Starts `executable` and waits for it on a thread of its own (a terminal may stay open
    /// for hours; no thread of Swift's pool is held); its status as `ChildProcess.wait` says
    /// it, or nil when it could not be started. Here rather than in Posix, so that the
    /// thumbnail worker, which links Posix, carries no Swift concurrency runtime.
    private static func run(_ executable: String, _ arguments: [String]) async -> Int32? {
        guard case .success(let pid) = ChildProcess.spawn(executable, arguments) else { return nil }
        return await withCheckedContinuation { (done: CheckedContinuation<Int32?, Never>) in
            let started = DetachedThread.start(name: "child-wait") { done.resume(returning: ChildProcess.wait(pid)) }
            // No thread to wait on: reap it here rather than leave a zombie.
            if !started { done.resume(returning: ChildProcess.wait(pid)) }
        }
    }
}
