import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// `[remote_poll_intervals]`: per-root poll intervals keyed by roots as `roots` writes them.
@Suite struct ConfigPollIntervalsTests {
    let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])

    /// The config loaded from `text`, or the error it gives.
    private func load(_ text: String, roots: [String] = []) throws -> Result<DaemonConfig, ConfigError> {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array(text.utf8))
        do throws(ConfigError) {
            return .success(try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file, roots: roots)))
        } catch {
            return .failure(error)
        }
    }

    @Test func keysAreRootsExpandedAsRootsAre() throws {
        let config = try load("""
            roots = ["~/nas", "Phone", "/srv/photos/"]
            remote_poll_interval = 60
            [remote_poll_intervals]
            "~/nas" = 120
            "Phone/" = 5
            """).get()
        #expect(config.remotePollInterval == 60)
        #expect(config.remotePollIntervals == ["/home/ann/nas": 120, "/home/ann/Phone": 5])
    }

    @Test func aKeyThatIsNoRootIsRefusedNamingItAndTheRootItWasLikelyMeantToBe() throws {
        let result = try load("""
            roots = ["~/nas", "/srv/photos"]
            [remote_poll_intervals]
            "~/nass" = 120
            """)
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.key == "remote_poll_intervals")
        #expect(error.problem == """
            "/home/ann/nass" is not one of the roots ("/home/ann/nas", "/srv/photos"); did you mean "/home/ann/nas"?
            """)
    }

    @Test func rootsGivenByFlagsAreTheOnesKeysMustName() throws {
        let text = "roots = [\"~/nas\"]\n[remote_poll_intervals]\n\"~/nas\" = 120\n"
        guard case .failure(let error) = try load(text, roots: ["/elsewhere"]) else { Issue.record("loaded"); return }
        #expect(error.problem.hasPrefix("\"/home/ann/nas\" is not one of the roots (\"/elsewhere\")"), "\(error.problem)")
        #expect(try load(text, roots: ["/home/ann/nas"]).get().remotePollIntervals == ["/home/ann/nas": 120])
    }

    @Test(arguments: ["0", "86401", "\"often\""])
    func aValueOutOfRangeOrNotANumberIsRefused(_ value: String) throws {
        let result = try load("roots = [\"/nas\"]\n[remote_poll_intervals]\n\"/nas\" = \(value)\n")
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.key == "remote_poll_intervals./nas")
    }

    @Test func twoKeysForOneRootAreRefused() throws {
        let result = try load("roots = [\"~/nas\"]\n[remote_poll_intervals]\n\"~/nas\" = 60\n\"/home/ann/nas/\" = 120\n")
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.problem == "names the same root as \"~/nas\"")
    }

    @Test func aTableIsRequired() throws {
        let result = try load("roots = [\"/nas\"]\nremote_poll_intervals = 5\n")
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.key == "remote_poll_intervals")
    }
}
