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

/// The XDG places photod and its clients agree on (README, "Files and places").
public struct DefaultPaths: Sendable {
    private let environment: [String: String]

    /// Paths computed from `environment` (the process environment by default).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The user's home folder.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String { xdg("XDG_CONFIG_HOME", fallback: ".config") }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public var stateHome: String { xdg("XDG_STATE_HOME", fallback: ".local/state") }

    /// `$XDG_RUNTIME_DIR`; without one (a bare container, a cron job), `/tmp/photod-runtime-UID`.
    ///
    /// Anyone can create that name in /tmp first, so photod and photoctl use it only when it is
    /// a real folder of this user's with mode 0700 (Varlink's `SocketFolder`), and refuse otherwise.
    public var runtimeDirectory: String {
        if let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") { return dir }
        return "/tmp/photod-runtime-\(getuid())"
    }

    /// `$XDG_CONFIG_HOME/photod/photod.toml`.
    public var configFile: String { configHome + "/photod/photod.toml" }

    /// `$XDG_STATE_HOME/photod/index.sqlite`.
    public var database: String { stateHome + "/photod/index.sqlite" }

    /// The socket: `$PHOTOD_SOCKET` when set (clients), else `$XDG_RUNTIME_DIR/photod/io.photod`.
    public var socket: String {
        if let socket = environment["PHOTOD_SOCKET"], !socket.isEmpty { return socket }
        return daemonSocket
    }

    /// `$XDG_RUNTIME_DIR/photod/io.photod`, where the daemon binds by default.
    public var daemonSocket: String { runtimeDirectory + "/photod/io.photod" }

    /// `$XDG_PICTURES_DIR` (environment, then `user-dirs.dirs`), else `~/Pictures`.
    public var pictures: String {
        if let dir = environment["XDG_PICTURES_DIR"], dir.hasPrefix("/") { return dir }
        if let text = try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
                var value = String(line.dropFirst("XDG_PICTURES_DIR=".count))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                value = value.replacing("$HOME", with: home)
                if value.hasPrefix("/") { return value }
            }
        }
        return home + "/Pictures"
    }

    /// `path` with a leading "~/" (or a lone "~") replaced by the home folder.
    public func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    private func xdg(_ name: String, fallback: String) -> String {
        // The spec says relative values are invalid and must be ignored.
        if let value = environment[name], value.hasPrefix("/") { return value }
        return home + "/" + fallback
    }
}
