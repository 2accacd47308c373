import PhotoAPI
import PhotoTestSupport
@testable import PhotoDaemon

/// Config file text, written to a temporary file and loaded the way photod loads it.
struct ConfigText {
    let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])

    /// The config `text` gives.
    func load(_ text: String) throws -> DaemonConfig {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array(text.utf8))
        return try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
    }

    /// The error `text` is refused with; nil when it loads.
    func problem(_ text: String) throws -> ConfigError? {
        do {
            _ = try load(text)
            return nil
        } catch let error as ConfigError {
            return error
        }
    }
}
