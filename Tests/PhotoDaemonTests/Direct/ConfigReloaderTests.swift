import FileSystem
import Logging
import Foundation
import PhotoAPI
import PhotoTestSupport
import Store
import Synchronization
import Systemd
import Testing
@testable import PhotoDaemon

/// A SIGHUP's reload, in-process over pieces built as `Daemon` builds them: the config file is
/// really re-read, and what can change while running is applied to the real indexer, authorizer
/// and caller resolver.
@Suite struct ConfigReloaderTests {
    /// A config file beside an indexing rig, and the pieces a reloader drives besides the indexer.
    final class Rig: Sendable {
        /// The index, the library and the indexer, built as `Daemon` builds them.
        let indexing: IndexingRig
        let file: String
        let config: DaemonConfig
        let authorizer: Authorizer
        let callers: CallerResolver
        let reloader: ConfigReloader
        /// How many times the authorizer told subscriptions that an app now sees nothing.
        let seen = Count()
        /// How many times the reloader asked for the status line it sends with READY=1.
        let readies = Count()

        var dir: TemporaryDirectory { indexing.dir }
        /// The library root, canonical.
        var library: String { indexing.library }
        var store: Store { indexing.store }
        var indexer: Indexer { indexing.indexer }
        var log: LogRecorder { indexing.log }

        /// Pieces built from a config of `extra` keys (TOML) besides roots, index and socket.
        init(_ extra: String = "") async throws {
            indexing = try IndexingRig()
            file = indexing.dir.file("photod.toml")
            let file = self.file
            let load: @Sendable () throws -> DaemonConfig = {
                try ConfigLoader(paths: DefaultPaths(environment: ["HOME": "/nonexistent"]))
                    .load(DaemonOverrides(configFile: file))
            }
            try indexing.dir.write("photod.toml", Array(Self.text([indexing.library], extra, in: indexing.dir).utf8))
            config = try load()
            let logger = indexing.log.logger()
            let seen = self.seen
            authorizer = try await Authorizer(store: indexing.store, policy: config.authorization, logger: logger) { app, to in
                seen.count.withLock { $0 += to == .none ? 1 : 0 }
            }
            callers = CallerResolver(ownerClient: "/usr/bin/photoctl", trusted: config.trusted, daemonUID: getuid(),
                                     procRoot: "/proc")
            let readies = self.readies
            reloader = ConfigReloader(
                config: config, load: load, indexer: indexing.indexer, authorizer: authorizer, callers: callers,
                importing: ImportSettings(config.importing, roots: config.roots), notifier: SystemdNotifier(environment: [:]),
                statusLine: {
                    readies.count.withLock { $0 += 1 }
                    return "ready"
                }, logger: logger)
        }

        /// The config text: `roots`, the index and socket in `dir`, the periodic rescan off, then `extra`.
        static func text(_ roots: [String], _ extra: String, in dir: TemporaryDirectory) -> String {
            """
            roots = [\(roots.map { "\"\($0)\"" }.joined(separator: ", "))]
            database = "\(dir.file("index.sqlite"))"
            socket = "\(dir.file("run/io.photod"))"
            rescan_interval = 0
            \(extra)
            """
        }

        /// Rewrites the config file: these roots (the library unless named) and `extra` keys.
        func rewrite(roots: [String]? = nil, _ extra: String = "") throws {
            try dir.write("photod.toml", Array(Self.text(roots ?? [library], extra, in: dir).utf8))
        }

        /// Runs `body` with a new rig and releases the index, threads and inotify afterwards.
        static func with(_ extra: String = "", _ body: (Rig) async throws -> Void) async throws {
            let rig = try await Rig(extra)
            // Request timers run in the authorization service, as in photod's service group.
            let timers = Task { [authorizer = rig.authorizer] in try await AuthorizationService(authorizer: authorizer, changes: ChangeRequests(authorizer: authorizer, logger: Logger(label: "test")), picks: PickRequests(authorizer: authorizer, logger: Logger(label: "test"))).run() }
            defer { timers.cancel() }
            try await withClosing(rig, close: { await $0.indexing.close() }, body)
        }
    }

    /// A counter the rig's callbacks bump.
    final class Count: Sendable {
        let count = Mutex(0)
        /// The count so far.
        var value: Int { count.withLock { $0 } }
    }

    /// An app of the test's own user.
    static func viewer(_ name: String = "viewer") -> AppIdentity {
        AppIdentity(id: "exe:/usr/bin/\(name)", uid: getuid(), source: .executable, executable: "/usr/bin/\(name)")
    }

    /// One change to a config and the name `restartOnly` gives it.
    struct Edit: Sendable, CustomTestStringConvertible {
        let key: String
        let change: @Sendable (inout DaemonConfig) -> Void
        /// The key, as the test case is named.
        var testDescription: String { key }
    }

    /// A change to every key only a restart applies.
    static let restartOnlyEdits: [Edit] = [
        Edit(key: "database") { $0.database += ".new" },
        Edit(key: "socket") { $0.socket += ".new" },
        Edit(key: "log_level") { $0.logLevel = .trace },
        Edit(key: "max_connections") { $0.maxConnections += 1 },
        Edit(key: "the connection limits") { $0.connectionLimits.idleTimeout += 1 },
        Edit(key: "rescan_interval") { $0.rescanInterval += 1 },
        Edit(key: "poll_interval") { $0.pollInterval += 1 },
        Edit(key: "remote_poll_interval") { $0.remotePollInterval += 1 },
        Edit(key: "[remote_poll_intervals]") { $0.remotePollIntervals[$0.roots[0]] = 120 },
        Edit(key: "max_watches") { $0.maxWatches += 1 },
        Edit(key: "change_retention") { $0.changeRetention += 1 },
        Edit(key: "change_retention_bytes") { $0.changeRetentionBytes += 1 },
        Edit(key: "subscriber_queue") { $0.subscriberQueue += 1 },
        Edit(key: "[groups]") { $0.grouping = GroupingRules(caseInsensitive: !$0.grouping.caseInsensitive) },
        Edit(key: "[groups]") { $0.descriptionSources = $0.descriptionSources.reversed() },
    ]

    @Test(arguments: restartOnlyEdits)
    func aKeyOnlyARestartAppliesIsNamed(_ edit: Edit) {
        let old = DaemonConfig.defaults()
        var new = old
        edit.change(&new)
        #expect(ConfigReloader.restartOnly(old: old, new: new) == [edit.key])
        #expect(ConfigReloader.restartOnly(old: new, new: old) == [edit.key])
    }

    @Test func whatAReloadAppliesIsNotWaitingForARestartAndEachKeyIsNamedOnce() {
        let old = DaemonConfig.defaults()
        var live = old
        live.roots = ["/srv/photos"]
        live.trusted = ["exe:/usr/bin/viewer"]
        live.authorization = AuthorizationPolicy(restricted: ["app:*"], requestTimeout: 5)
        live.indexSizeLimit = 64 << 20
        #expect(ConfigReloader.restartOnly(old: old, new: live).isEmpty)
        #expect(ConfigReloader.restartOnly(old: old, new: old).isEmpty)
        // Equal rules written differently are no change.
        var respelled = old
        respelled.grouping = GroupingRules(boilerplate: GroupingRules.defaultBoilerplate.reversed().map { $0.lowercased() })
        #expect(ConfigReloader.restartOnly(old: old, new: respelled).isEmpty)

        var many = live
        many.subscriberQueue += 1
        many.grouping = GroupingRules(fallbackName: "Unsorted")
        many.descriptionSources = [.xmp]
        many.database = "/elsewhere.sqlite"
        #expect(ConfigReloader.restartOnly(old: old, new: many) == ["database", "subscriber_queue", "[groups]"])
    }

    @Test func aChangedTrustedListIsAppliedToTheCallerResolver() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.viewer()
            #expect(!rig.callers.isTrusted(viewer))
            try rig.rewrite("[permissions]\ntrusted = [\"/usr/bin/vie*\"]")
            await rig.reloader.reload()
            #expect(rig.callers.trusted == ["/usr/bin/vie*"])
            #expect(rig.callers.isTrusted(viewer))
            #expect(!rig.callers.isTrusted(Self.viewer("editor")))
            #expect(rig.log.contains("trusted programs reloaded: /usr/bin/vie*"))
            #expect(rig.readies.value == 1, "READY=1 follows the reload")

            try rig.rewrite()
            await rig.reloader.reload()
            #expect(rig.callers.trusted.isEmpty)
            #expect(!rig.callers.isTrusted(viewer))
        }
    }

    @Test func aChangedPolicyRestrictsAndReleasesAppsAndSetsTheRequestTimeout() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.viewer()
            _ = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            try rig.rewrite("[permissions]\nrestricted = [\"exe:/usr/bin/viewer\"]\nrequest_timeout = 1")
            await rig.reloader.reload()
            #expect(await rig.authorizer.record(for: viewer).status == .restricted)
            #expect(rig.seen.value == 1, "its subscriptions lose what it saw")
            #expect(rig.log.contains("permissions policy reloaded"))

            // Requests now wait the new timeout: one second, not the default five minutes. The
            // bound is far from both so a loaded machine (the unit run starts ~1,900 tests at
            // once) cannot fail it, while the default still would.
            let started = ContinuousClock.now
            let (_, answers) = try await rig.authorizer.request(Self.viewer("asker"), reason: "r", label: nil)
            var last: RequestAuthorizationReply?
            for await reply in answers { last = reply }
            #expect(last == RequestAuthorizationReply(status: .notDetermined, pending: false))
            #expect(ContinuousClock.now - started < .seconds(60))

            try rig.rewrite()
            await rig.reloader.reload()
            #expect(await rig.authorizer.record(for: viewer).status == .authorized)
        }
    }

    @Test func aConfigThatDoesNotLoadLeavesTheRunningOneInPlace() async throws {
        try await Rig.with("[permissions]\ntrusted = [\"/usr/bin/viewer\"]") { rig async throws in
            let viewer = Self.viewer()
            _ = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            // Valid keys that would change much, and one that is not: nothing of it applies.
            try rig.rewrite("""
                log_level = "debug"
                [permissions]
                trusted = ["/usr/bin/editor"]
                restricted = ["exe:/usr/bin/viewer"]
                no_such_key = 1
                """)
            await rig.reloader.reload()
            #expect(rig.log.contains("reload failed, the running config stays: \(rig.file): permissions.no_such_key"))
            #expect(rig.callers.trusted == ["/usr/bin/viewer"])
            #expect(await rig.authorizer.record(for: viewer).status == .authorized)
            #expect(!rig.log.contains("taking effect at the next start"))
            #expect(rig.readies.value == 1, "READY=1 is sent after a failed reload too")

            try FileManager.default.removeItem(atPath: rig.file)
            await rig.reloader.reload()
            #expect(rig.log.contains("reload failed, the running config stays: \(rig.file): no such file"))
            #expect(rig.callers.trusted == ["/usr/bin/viewer"])

            // The running config is still the first: reloading it again changes nothing.
            try rig.rewrite("[permissions]\ntrusted = [\"/usr/bin/viewer\"]")
            await rig.reloader.reload()
            #expect(!rig.log.contains("trusted programs reloaded"))
            #expect(!rig.log.contains("permissions policy reloaded"))
            #expect(rig.readies.value == 3)
        }
    }

    @Test func keysThatWaitForARestartAreReportedOnceTheRestApplied() async throws {
        try await Rig.with { rig async throws in
            try rig.rewrite("""
                log_level = "debug"
                max_connections = 8
                [permissions]
                trusted = ["/usr/bin/viewer"]
                """)
            await rig.reloader.reload()
            #expect(rig.log.contains("taking effect at the next start: log_level, max_connections"))
            #expect(rig.callers.trusted == ["/usr/bin/viewer"])
            // The new config is the running one now: the same file again reports nothing.
            let before = rig.log.text
            await rig.reloader.reload()
            let after = String(rig.log.text.dropFirst(before.count))
            #expect(after.contains("SIGHUP: reloading the config"))
            #expect(!after.contains("taking effect at the next start"))
            #expect(!after.contains("reloaded"))
        }
    }

    @Test func theIndexSizeLimitIsAppliedWhileRunning() async throws {
        try await Rig.with { rig async throws in
            try rig.rewrite("index_size_limit = 64")
            await rig.reloader.reload()
            #expect(rig.log.contains("index_size_limit reloaded: 64 MiB"))
            try rig.rewrite("index_size_limit = 0")
            await rig.reloader.reload()
            #expect(rig.log.contains("index_size_limit reloaded: none"))
            #expect(!rig.log.contains("reload failed"))
        }
    }

    @Test func changedRootsAreScannedOrLeaveTheIndex() async throws {
        try await Rig.with { rig async throws in
            try rig.dir.write("library/kept.jpg", JPEGFixture.make(exif: ExifFixture(description: "Beach")))
            try rig.dir.write("more/added.jpg", JPEGFixture.make(exif: ExifFixture(description: "Garden")))
            let more = FileSystem.canonicalPath(PathBytes(rig.dir.file("more")))?.description ?? ""
            try await rig.indexing.withCommandLoop {
                _ = try await rig.indexer.reconcile(reason: "start")
                let names = { (assets: [StoredAsset]) in
                    assets.map { $0.path.description }.sorted()
                }
                #expect(try await names(rig.store.read { try $0.allAssets() }) == [rig.library + "/kept.jpg"])

                try rig.rewrite(roots: [rig.library, more])
                await rig.reloader.reload()
                #expect(try await names(rig.store.read { try $0.allAssets() }) == [rig.library + "/kept.jpg", more + "/added.jpg"])
                #expect(rig.log.contains("roots reloaded: added \(more)"))

                try rig.rewrite(roots: [more])
                await rig.reloader.reload()
                #expect(try await names(rig.store.read { try $0.allAssets() }) == [more + "/added.jpg"])
                #expect(rig.log.contains("roots reloaded: removed \(rig.library)"))
                #expect(rig.indexer.roots.all.map(\.configured) == [more])
            }
        }
    }

    @Test func anUnchangedConfigChangesNothing() async throws {
        try await Rig.with { rig async throws in
            await rig.reloader.reload()
            #expect(rig.log.contains("SIGHUP: reloading the config"))
            #expect(!rig.log.contains("reloaded"))
            #expect(!rig.log.contains("taking effect"))
            #expect(!rig.log.contains("reload failed"))
            #expect(rig.readies.value == 1)
        }
    }
}
