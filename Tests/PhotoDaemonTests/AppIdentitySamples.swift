@testable import PhotoDaemon

/// Test helpers: /proc contents written the way the kernel writes them.
enum AppIdentitySamples {
    /// A /proc/PID/cmdline: each argument followed by a NUL.
    static func cmdline(_ arguments: String...) -> [UInt8] {
        cmdline(arguments)
    }

    /// A /proc/PID/cmdline for an argument array.
    static func cmdline(_ arguments: [String]) -> [UInt8] {
        arguments.flatMap { (argument: String) -> [UInt8] in Array(argument.utf8) + [0] }
    }

    /// A cgroup v2 file whose only line puts the process in `path`.
    static func cgroup(_ path: String) -> String {
        "0::\(path)\n"
    }

    /// A user-manager path under app.slice, for uid 1000.
    static func appSlice(_ unit: String) -> String {
        "/user.slice/user-1000.slice/user@1000.service/app.slice/\(unit)"
    }

    /// Identifies a process outside any app unit (a terminal's shell tree).
    static func plain(exe: String, _ arguments: [UInt8], cwd: String? = "/home/u") -> AppIdentity {
        AppIdentityResolver.identify(
            uid: 1000, cgroup: cgroup(appSlice("vte-spawn-0b7c.scope")), exe: exe, cmdline: arguments, cwd: cwd
        )
    }
}
