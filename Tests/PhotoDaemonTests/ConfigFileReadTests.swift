import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// What photod reads as its config file: a regular file of bounded size, in UTF-8; anything
/// else is a clear error rather than a hang or memory filled.
@Suite struct ConfigFileReadTests {
    let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])

    private func load(_ file: String) -> Result<DaemonConfig, ConfigError> {
        Result { () throws(ConfigError) in try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file)) }
    }

    private func problem(_ file: String) -> String? {
        if case .failure(let error) = load(file) { return error.problem }
        return nil
    }

    @Test func aFileOfCommentsJustUnderTheCapLoads() throws {
        let dir = try TemporaryDirectory()
        let line = Array("# \(String(repeating: "x", count: 1021))\n".utf8)
        let file = try dir.write("photod.toml", Array(repeating: line, count: (1 << 20) / line.count).flatMap { $0 })
        #expect(throws: Never.self) { try load(file).get() }
    }

    @Test func aFileOverOneMebibyteIsRefusedBeforeParsing() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1))
        #expect(problem(file)?.contains("larger than 1 MiB") == true)
    }

    @Test func aDeviceOrAFifoIsNotReadAsAConfigFile() throws {
        #expect(problem("/dev/zero") == "cannot read: it is not a regular file")
        let dir = try TemporaryDirectory()
        let fifo = dir.file("photod.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        // No writer ever opens it: a plain open would wait forever.
        #expect(problem(fifo) == "cannot read: it is not a regular file")
        #expect(problem(dir.path) == "cannot read: it is not a regular file")
    }

    @Test func textThatIsNotUTF8IsRefused() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", [0x23, 0xFF, 0xFE, 0x0A])
        #expect(problem(file) == "cannot read: it is not UTF-8 text")
    }

    @Test func aMissingFileIsAnErrorOnlyWhenNamed() throws {
        let dir = try TemporaryDirectory()
        #expect(problem(dir.file("absent.toml")) == "no such file")
        let defaults = DefaultPaths(environment: ["HOME": dir.path, "XDG_CONFIG_HOME": dir.file("nowhere")])
        let loaded = try ConfigLoader(paths: defaults).load(DaemonOverrides())
        #expect(loaded == DaemonConfig.defaults(paths: defaults))
    }
}
