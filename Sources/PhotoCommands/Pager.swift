#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pager long output for people goes through on a terminal, following systemd's pager.c:
/// `$PAGER` (empty or `cat`: none), else `less`, with `LESS=FRSXMK` (quit when it fits one
/// screen, keep colours, chop long lines, keep the screen, long prompt, quit on Ctrl-C) and
/// UTF-8. photoctl writes into a pipe whose other end is the pager's standard input, and at its
/// end closes the pipe and waits for the pager, so the shell's prompt comes back after it.
struct Pager: Sendable {
    /// The program and arguments to start.
    struct Command: Sendable, Equatable {
        var program: String
        var arguments: [String]
        /// Environment variables set for it (`LESS`, `LESSCHARSET`, `LESSSECURE`).
        var environment: [String: String]
    }

    /// Options for less, as systemd sets them.
    static let lessOptions = "FRSXMK"

    let pid: pid_t
    /// The terminal's descriptors as they were, put back when the pager is closed.
    private let savedOutput: Int32
    private let savedError: Int32?

    /// What to run as the pager, nil for none: `$PAGER` through the shell (it may hold
    /// options) when its program is installed, else `less` when that is. With elevated privileges (sudo), only less
    /// in its secure mode, as systemd does, so the pager cannot become a root shell.
    static func command(environment: [String: String], elevated: Bool,
                        find: (String) -> String? = { ProgramRunner.find($0) }) -> Command? {
        guard !TerminalFacts.isDumb(environment) else { return nil }
        var settings = ["LESS": lessOptions, "LESSCHARSET": environment["LESSCHARSET"] ?? "utf-8"]
        if let pager = environment["PAGER"], !elevated {
            guard !pager.isEmpty, pager != "cat" else { return nil }
            // A pager that is not installed would swallow the output; like systemd, fall back to less.
            let program = pager.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            if program.contains("/") ? access(program, X_OK) == 0 : find(program) != nil {
                return Command(program: "/bin/sh", arguments: ["-c", pager], environment: settings)
            }
        }
        guard let less = find("less") else { return nil }
        if elevated { settings["LESSSECURE"] = "1" }
        return Command(program: less, arguments: [], environment: settings)
    }

    /// Whether photoctl runs with more privileges than the user who started it.
    static var isElevated: Bool {
        let environment = StartEnvironment.variables
        return getuid() != geteuid()
            || (geteuid() == 0 && (environment["SUDO_UID"] != nil || environment["PKEXEC_UID"] != nil))
    }

    /// Starts `command` reading what photoctl writes to standard output from now on (and to
    /// standard error, when that is the terminal too, so messages stay in order); nil when it
    /// cannot be started, and the output goes to the terminal as it would have.
    static func start(_ command: Command, redirectError: Bool) -> Pager? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (reading, writing) = (ends[0], ends[1])
        // Nothing else starts programs meanwhile, so marking them now is as good as pipe2's flag.
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        // The terminal, to put back at the end; without it the pager could never be closed.
        let savedOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        let savedError = redirectError ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) : nil
        func abandon() -> Pager? {
            for descriptor in [reading, writing, savedOutput, savedError ?? -1] where descriptor >= 0 { close(descriptor) }
            return nil
        }
        guard savedOutput >= 0, (savedError ?? 0) >= 0 else { return abandon() }
        // photoctl never reads these variables, so setting them here is setting them for the child.
        for (name, value) in command.environment { setenv(name, value, 1) }
        // The pager gets the read end as its standard input and the terminal as its output;
        // it inherits no other descriptor of ours (every other one is close-on-exec), so the
        // pipe ends for it exactly when photoctl closes its write end.
        guard let pid = try? ProgramRunner.spawn(command.program, command.arguments.map { Array($0.utf8) },
                                                 input: reading) else { return abandon() }
        close(reading)
        dup2(writing, STDOUT_FILENO)
        if redirectError { dup2(writing, STDERR_FILENO) }
        close(writing)
        return Pager(pid: pid, savedOutput: savedOutput, savedError: savedError)
    }

    /// Ends the pager's input (puts the terminal back on standard output and error, which
    /// closes the pipe) and waits until the person has quit it.
    func finish() {
        dup2(savedOutput, STDOUT_FILENO)
        if let savedError { dup2(savedError, STDERR_FILENO) }
        close(savedOutput)
        if let savedError { close(savedError) }
        // Like systemd: a pager stopped with Ctrl-Z would otherwise never see its input end.
        kill(pid, SIGCONT)
        _ = try? ProgramRunner.wait(for: pid, program: "the pager")
    }
}
