import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

@Suite struct ConfigPermissionsTests {
    private let files = ConfigText()
    private var paths: DefaultPaths { files.paths }
    private func load(_ text: String) throws -> DaemonConfig { try files.load(text) }
    private func problem(_ text: String) throws -> ConfigError? { try files.problem(text) }

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
