import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

@Suite struct ConfigPermissionsTests {
    let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])

    private func load(_ text: String) throws -> DaemonConfig {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array(text.utf8))
        return try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
    }

    private func problem(_ text: String) throws -> ConfigError? {
        do {
            _ = try load(text)
            return nil
        } catch let error as ConfigError {
            return error
        }
    }

    @Test func thePermissionsTableSetsTrustRestrictionAndTimeout() throws {
        let config = try load("""
            [permissions]
            trusted = ["/usr/bin/shotwell", "app:org.gnome.*"]
            restricted = ["exe:/opt/spy/*"]
            request_timeout = 45
            """)
        #expect(config.trusted == ["/usr/bin/shotwell", "app:org.gnome.*"])
        #expect(config.authorization == AuthorizationPolicy(restricted: ["exe:/opt/spy/*"], requestTimeout: 45))
        #expect(config.authorization.restricts("exe:/opt/spy/bin/viewer"))
    }

    @Test func trustingEveryProgramIsRefused() throws {
        for entry in ["*", ""] {
            let error = try #require(try problem("[permissions]\ntrusted = [\"\(entry)\"]"))
            #expect(error.key == "permissions.trusted")
        }
    }

    @Test func badPermissionValuesNameTheirKey() throws {
        #expect(try problem("[permissions]\nrequest_timeout = 0")?.key == "permissions.request_timeout")
        #expect(try problem("[permissions]\nrestricted = \"exe:/x\"")?.key == "permissions.restricted")
        #expect(try problem("[permissions]\nrestricted = [\"\"]")?.key == "permissions.restricted")
        #expect(try problem("[permissions]\ntrustd = []")?.key == "permissions.trustd")
    }
}
