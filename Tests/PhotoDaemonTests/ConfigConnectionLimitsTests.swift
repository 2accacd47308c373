import Logging
import Testing
import Varlink
@testable import PhotoDaemon

/// The keys that hold each client to its share of the varlink server.
@Suite struct ConfigConnectionLimitsTests {
    let config = ConfigText()
    let callers = CallerResolver(ownerClient: "/usr/bin/photoctl", trusted: [], daemonUID: 1000, procRoot: "/proc")

    @Test func theKeysReachTheServerConfiguration() throws {
        let loaded = try config.load("""
            max_connections = 20
            max_connections_per_uid = 5
            owner_reserved_connections = 3
            idle_timeout = 90
            max_unsent_bytes = 131072
            """)
        #expect(loaded.connectionLimits.perUID == 5)
        #expect(loaded.connectionLimits.ownerReserved == 3)
        let server = VarlinkService.configure(for: loaded, callers: callers, logger: .init(label: "test"))
        #expect(server.maxConnections == 20)
        #expect(server.maxConnectionsPerUID == 5)
        #expect(server.ownerReservedConnections == 3)
        #expect(server.idleTimeout == .seconds(90))
        #expect(server.maxUnsentBytes == 131_072)
        #expect(server.ownerUID == 1000)
    }

    @Test func theOwnerIsWhomCallerNamesTheOwner() throws {
        let server = VarlinkService.configure(for: try config.load(""), callers: callers, logger: .init(label: "test"))
        let isOwner = try #require(server.isOwner)
        let photoctl = AppIdentity(id: "exe:/usr/bin/photoctl", uid: 1000, source: .executable, executable: "/usr/bin/photoctl")
        // Evaluated outside #expect: its expansion of a call with an `(any Sendable)?` argument crashes.
        let answers = [
            isOwner(Caller.owner(photoctl)), isOwner(Caller.app(photoctl)),
            isOwner(Caller.unidentified(reason: "gone")), isOwner(nil), isOwner("owner"),
        ]
        #expect(answers == [true, false, false, false, false])
    }

    @Test func aFloodOfClientsThatCannotBeIdentifiedCannotFloodTheLog() async throws {
        let log = LogRecorder()
        let identify = VarlinkService.identify(with: callers, logger: log.logger(level: .trace))
        let noPeer: VarlinkPeer? = nil
        for _ in 0..<30 {
            let caller = await identify(noPeer) as? Caller
            #expect(caller == .unidentified(reason: "the kernel gave no peer credentials"))
        }
        #expect(log.all.count == 10)
        #expect(log.all.allSatisfy { $0.hasPrefix("refusing a client photod cannot identify") })
    }

    @Test func aReserveThatLeavesAppsNothingIsRefusedAndTheDefaultShrinksToFit() throws {
        let problem = try config.problem("max_connections = 4\nowner_reserved_connections = 4\n")
        #expect(problem?.key == "owner_reserved_connections")
        #expect(problem?.problem.contains("leaves none") == true)
        #expect(try config.load("max_connections = 2\n").connectionLimits.ownerReserved == 1)
        #expect(try config.problem("max_unsent_bytes = 100\n")?.problem.contains("out of range") == true)
        #expect(try config.problem("idle_timeout = 0\n")?.key == "idle_timeout")
        #expect(try config.problem("max_connections_per_uid = \"many\"\n")?.key == "max_connections_per_uid")
    }
}
