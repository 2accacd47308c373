import Foundation
import PhotoTestSupport
import Testing

/// Roots on file systems inotify cannot see into are polled: a bindfs FUSE mount over a folder
/// the test owns, changed in that folder behind the mount's back; and a FUSE daemon that stops
/// answering never holds photod's answers. Needs root, bindfs and /dev/fuse.
@Suite(.serialized) struct RemoteMountTests {
    /// The first root of `photoctl status --json`.
    private static func root(_ daemon: DaemonHarness) async -> [String: Any] {
        let status = try? await daemon.photoctlJSON(["status"])
        return (status?["roots"] as? [[String: Any]])?.first ?? [:]
    }

    /// Runs `body` with a daemon whose library is a bindfs mount of `backing` (holding
    /// `photos` before the mount), polled every `interval` seconds (its own, in
    /// `[remote_poll_intervals]`); then continues bindfs, stops the daemon and unmounts, whether
    /// `body` returned or threw. With `inside`, the library is a local folder holding `local`,
    /// and the mount is at `inside` in it (polled at the root's interval).
    private static func withFUSELibrary(photos: [String: String], interval: Int = 1, knobs: [String: String] = [:],
                                        inside: String? = nil, local: [String: String] = [:],
                                        _ body: (DaemonHarness, BindfsMount, String) async throws -> Void) async throws {
        // At debug level photod logs each poll pass. The root's own interval is the one used:
        // at the default of 600 s no change would be found within a test.
        let daemon = try DaemonHarness(arguments: ["--log-level", "debug"])
        try daemon.writeConfig(settings: "remote_poll_interval = 600\n[remote_poll_intervals]\n\"\(daemon.library)\" = \(interval)\n",
                               trusted: DaemonHarness.defaultTrusted)
        daemon.daemonEnvironment = knobs
        let backing = daemon.dir.file("backing")
        try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
        for (name, description) in photos { try daemon.dir.write("backing/" + name, Photo.jpeg(description)) }
        for (name, description) in local { _ = try daemon.add(name, Photo.jpeg(description)) }
        let mountPoint = inside.map { daemon.library + "/" + $0 } ?? daemon.library
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try await BindfsMount(backing, at: mountPoint)
        try await withClosing(mount, close: { mount in
            mount.resume()
            await daemon.stop()
            await mount.unmount()
        }) { mount in
            try await daemon.start()
            try await body(daemon, mount, backing)
        }
    }

    /// How many threads of process `pid` have the name `name`.
    private static func threads(named name: String, in pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines) == name
        }.count
    }

    /// The first root's last poll pass in `photoctl status --json`.
    private static func lastPass(_ daemon: DaemonHarness) async -> [String: Any]? {
        await root(daemon)["lastPass"] as? [String: Any]
    }

    private static func ids(_ daemon: DaemonHarness) async -> [String: String] {
        (try? await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)) ?? [:]
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func changesBehindAFUSERootAreFoundWithinAPollInterval() async throws {
        try await Self.withFUSELibrary(photos: ["a.jpg": "Trip"]) { daemon, _, backing in
            let root = await Self.root(daemon)
            #expect(root["fileSystem"] as? String == "fuse", "\(root)")
            #expect(root["state"] as? String == "polling")
            #expect(root["pollInterval"] as? Int == 1)
            #expect(root["stalled"] as? Bool == false)
            let text = try await daemon.photoctl(["status"]).stdout
            #expect(text.contains("polling every 1 s"), "\(text)")
            // The last pass: when it ended, what it cost, over the one photo, within its budget.
            #expect(await eventually(within: 5) { await Self.lastPass(daemon) != nil }, "a pass: \(daemon.log)")
            let pass = await Self.lastPass(daemon) ?? [:]
            let ended = (pass["ended"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
            #expect(ended.map { abs($0.timeIntervalSinceNow) < 10 } == true, "\(pass)")
            #expect(pass["files"] as? Int == 1, "\(pass)")
            // A pass is put back only past a quarter of the interval: on a loaded machine one may be.
            let seconds = pass["seconds"] as? Double ?? -1
            if let delayed = pass["delayedInterval"] as? Int {
                #expect(seconds >= 0.25 && delayed == Int((seconds * 4).rounded(.up)), "\(pass)")
            } else {
                #expect((0...0.25).contains(seconds), "\(pass)")
            }
            let passText = try await daemon.photoctl(["status"]).stdout
            #expect(passText.contains("\(daemon.library): polling every 1 s; last pass "), "\(passText)")
            #expect(passText.contains(" s over 1 file, "), "\(passText)")
            let first = await Self.ids(daemon)
            #expect(first.keys.sorted() == ["a.jpg"])

            // Each change is made in the backing folder: no inotify event reaches photod.
            try daemon.dir.write("backing/new.jpg", Photo.jpeg("New"))
            #expect(await eventually(within: 5) { await Self.ids(daemon)["new.jpg"] != nil }, "created: \(daemon.log)")
            let new = await Self.ids(daemon)["new.jpg"]

            // Changed as editors and ExifTool save: a new file renamed over the old, which moves
            // the folder's time (a rewrite in place waits for a full pass: the next test).
            try Data(Photo.jpeg("Changed")).write(to: URL(fileURLWithPath: backing + "/a.jpg"), options: .atomic)
            #expect(await eventually(within: 5) {
                (try? await daemon.photoctlJSON(["groups"]).groupCounts["Changed"]) == 1
            }, "changed: \(daemon.log)")
            #expect(await Self.ids(daemon)["a.jpg"] == first["a.jpg"], "a changed photo keeps its id")

            try FileManager.default.moveItem(atPath: backing + "/new.jpg", toPath: backing + "/renamed.jpg")
            #expect(await eventually(within: 5) { await Self.ids(daemon)["renamed.jpg"] != nil }, "renamed: \(daemon.log)")
            let renamed = await Self.ids(daemon)
            #expect(renamed["renamed.jpg"] == new && renamed["new.jpg"] == nil, "a renamed photo keeps its id")

            try FileManager.default.removeItem(atPath: backing + "/renamed.jpg")
            #expect(await eventually(within: 5) { await Self.ids(daemon).keys.sorted() == ["a.jpg"] }, "deleted: \(daemon.log)")
        }
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func aStoppedFUSEDaemonNeverHoldsStatusAndIsPolledAgainWhenItAnswers() async throws {
        try await Self.withFUSELibrary(photos: ["a.jpg": "Trip", "b.jpg": "Trip"], interval: 4) { daemon, mount, _ in
            #expect(await Self.ids(daemon).count == 2)
            // Stopped just after a pass, so the stall is found by the probes between passes (the
            // next test stops it in the middle of one).
            let passed = await Self.lastPass(daemon)?["ended"] as? String
            #expect(await eventually(within: 15) {
                let ended = await Self.lastPass(daemon)?["ended"] as? String
                return ended != nil && ended != passed
            }, "a pass ends: \(daemon.log)")
            mount.pause()
            #expect(await eventually(within: 10) { await Self.root(daemon)["stalled"] as? Bool == true }, "\(daemon.log)")
            // Several answers while it stays stopped, each quick.
            for _ in 0..<3 {
                let clock = ContinuousClock()
                let started = clock.now
                let status = try await daemon.photoctlJSON(["status"])
                #expect(clock.now - started < .seconds(2), "status took \(clock.now - started)")
                let problems = (status["problems"] as? [String] ?? []).joined(separator: "\n")
                #expect(problems.contains("does not answer"), "\(problems)")
                try await Task.sleep(for: .seconds(1))
            }
            // A mount elsewhere makes photod check every root again, and a rescan walks them: neither
            // may walk into the stopped mount (that would hold the indexer until it answers).
            let elsewhere = daemon.dir.file("elsewhere")
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            try await TmpfsMount.with(at: elsewhere, options: "size=1m") {
                try await Task.sleep(for: .seconds(2))
            }
            let rescan = try await ProcessRunner.run(Binaries.photoctl, ["rescan"], environment: daemon.environment,
                                                     timeout: 15)
            #expect(rescan.status == 0, "\(rescan.stderr)")
            let list = try await daemon.photoctlJSON(["list"])
            #expect(list.assets.count == 2, "what is indexed stays readable")
            // Many polls went by (every second): one probe thread is stuck in the mount, not one a poll.
            let probes = Self.threads(named: "photod-probe", in: daemon.pid ?? 0)
            #expect(probes <= 1, "\(probes) probe threads")

            mount.resume()
            #expect(await eventually(within: 10) { await Self.root(daemon)["stalled"] as? Bool == false }, "\(daemon.log)")
            try daemon.dir.write("backing/c.jpg", Photo.jpeg("After"))
            #expect(await eventually(within: 12) { await Self.ids(daemon)["c.jpg"] != nil }, "polled again: \(daemon.log)")
            let status = try await daemon.photoctlJSON(["status"])
            #expect(status["state"] as? String == "ready", "\(status)")
        }
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func aFUSEDaemonStoppedInTheMiddleOfAPassHoldsNeitherRescanNorStatus() async throws {
        // Each chunk of files waits 2 s before it is read: the FUSE daemon is stopped while a
        // pass (the poller's or the rescan's) has listed the folder and waits to read it.
        try await Self.withFUSELibrary(photos: ["a.jpg": "Trip"], interval: 4,
                                       knobs: ["PHOTOD_TEST_READ_DELAY_MS": "2000"]) { daemon, mount, _ in
            #expect(await Self.ids(daemon).count == 1)
            for index in 0..<20 { try daemon.dir.write("backing/new\(index).jpg", Photo.jpeg("New")) }
            async let rescan = ProcessRunner.run(Binaries.photoctl, ["rescan"], environment: daemon.environment,
                                                 timeout: 30)
            try await Task.sleep(for: .milliseconds(700))
            mount.pause()
            let clock = ContinuousClock()
            let paused = clock.now
            let rescanned = try await rescan
            #expect(rescanned.status == 0, "\(rescanned.stderr)")
            // Probed every 2 s, each probe given 2 s: the pass is given up within a few seconds.
            #expect(clock.now - paused < .seconds(12), "rescan took \(clock.now - paused) after the stop: \(daemon.log)")
            #expect(daemon.log.contains("was given up") || daemon.log.contains("was not reconciled"),
                    "a pass was given up half-way: \(daemon.log)")
            #expect(await Self.root(daemon)["stalled"] as? Bool == true, "\(daemon.log)")
            // Status keeps the last whole pass: one given up (when the poller's was) is not a pass over no files.
            let shown = await Self.root(daemon)
            #expect((shown["lastPass"] as? [String: Any])?["files"] as? Int != 0, "\(shown)")
            let started = clock.now
            let list = try await daemon.photoctlJSON(["list"])
            #expect(clock.now - started < .seconds(2))
            #expect(list.assets.count >= 1, "what is indexed stays readable")

            mount.resume()
            #expect(await eventually(within: 15) { await Self.root(daemon)["stalled"] as? Bool == false }, "\(daemon.log)")
            // The given-up pass ends once its read comes back; the next pass finds every file.
            #expect(await eventually(within: 30) { await Self.ids(daemon).count == 21 }, "\(daemon.log)")
        }
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func aStoppedFUSEMountInsideALocalRootHoldsNoRescanOfTheRest() async throws {
        try await Self.withFUSELibrary(photos: ["far.jpg": "Far"], interval: 4, inside: "nas",
                                       local: ["near.jpg": "Near"]) { daemon, mount, _ in
            #expect(await Self.ids(daemon).keys.sorted() == ["nas/far.jpg", "near.jpg"])
            let root = await Self.root(daemon)
            #expect(root["state"] as? String == "watching", "the local root keeps inotify: \(root)")
            let mounts = root["mounts"] as? [[String: Any]] ?? []
            #expect(mounts.first?["pollInterval"] as? Int == 4, "the mount inside is polled: \(root)")
            mount.pause()
            #expect(await eventually(within: 12) {
                (await Self.root(daemon)["mounts"] as? [[String: Any]])?.first?["stalled"] as? Bool == true
            }, "\(daemon.log)")
            // A rescan of the root walks its local part and leaves the stopped mount as indexed.
            _ = try daemon.add("later.jpg", Photo.jpeg("Later"))
            let rescan = try await ProcessRunner.run(Binaries.photoctl, ["rescan"], environment: daemon.environment,
                                                     timeout: 20)
            #expect(rescan.status == 0, "\(rescan.stderr)")
            #expect(await Self.ids(daemon).keys.sorted() == ["later.jpg", "nas/far.jpg", "near.jpg"], "\(daemon.log)")
            mount.resume()
            try daemon.dir.write("backing/back.jpg", Photo.jpeg("Back"))
            #expect(await eventually(within: 15) { await Self.ids(daemon)["nas/back.jpg"] != nil }, "\(daemon.log)")
        }
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func unchangedFoldersAreListedByNameAndARewriteInPlaceIsFoundAtTheNextFullPass() async throws {
        // Folder times are kept only once settled (3 s before the listing), so the photos are
        // made well before the passes counted here.
        try await Self.withFUSELibrary(photos: ["a.jpg": "Trip", "sub/b.jpg": "Trip"]) { daemon, _, _ in
            let trusted = "unchanged folders listed by name"
            #expect(await eventually(within: 20) { daemon.log.contains("2 \(trusted)") }, "\(daemon.log)")
            // Just after a full pass: the next nine list the unchanged folders by name.
            let fullPasses = { daemon.log.components(separatedBy: "(every file stat-ed)").count }
            let before = fullPasses()
            #expect(await eventually(within: 20) { fullPasses() > before }, "\(daemon.log)")
            try daemon.dir.write("backing/sub/b.jpg", Photo.jpeg("Rewritten"))
            // Rewritten in place (open, truncate, write): the folder's time does not move.
            try await Task.sleep(for: .seconds(4))
            let groups = try await daemon.photoctlJSON(["groups"]).groupCounts
            #expect(groups["Rewritten"] == nil, "a pass that trusts folder times does not stat b.jpg: \(daemon.log)")
            // The tenth pass stats every file again.
            #expect(await eventually(within: 25) {
                (try? await daemon.photoctlJSON(["groups"]).groupCounts["Rewritten"]) == 1
            }, "\(daemon.log)")
            // A new photo moves its folder's time: found at the next pass, however trusting.
            try daemon.dir.write("backing/sub/c.jpg", Photo.jpeg("New"))
            #expect(await eventually(within: 5) { await Self.ids(daemon)["sub/c.jpg"] != nil }, "\(daemon.log)")
        }
    }

    @Test(.enabled(if: BindfsMount.canMount, "a FUSE mount needs root, bindfs (scripts/install-deps --test) and /dev/fuse"))
    func aCrashedFUSEDaemonLosesNoPhoto() async throws {
        try await Self.withFUSELibrary(photos: ["a.jpg": "Trip", "sub/b.jpg": "Trip"]) { daemon, mount, _ in
            let before = await Self.ids(daemon)
            #expect(before.count == 2)
            // Killed, not stopped: the mount stays, and every call on it fails at once with
            // ENOTCONN ("Transport endpoint is not connected") instead of hanging.
            mount.daemon.signal(SIGKILL)
            let passes = daemon.log.components(separatedBy: "Transport endpoint is not connected").count
            #expect(await eventually(within: 15) {
                daemon.log.components(separatedBy: "Transport endpoint is not connected").count > passes + 2
            }, "several passes met the dead mount: \(daemon.log)")
            #expect(await Self.ids(daemon) == before, "every photo and its id stays: \(daemon.log)")
        }
    }

    @Test func aLocalRootIsWatchedNotPolled() async throws {
        // Polls far apart: only inotify can find the new photo in time.
        let daemon = try DaemonHarness(settings: "remote_poll_interval = 600\n")
        try await withClosing(daemon, close: { await $0.stop() }) { daemon in
            try await daemon.start()
            let root = await Self.root(daemon)
            #expect(root["state"] as? String == "watching", "\(root)")
            #expect(root["pollInterval"] == nil && root["stalled"] == nil)
            #expect((root["fileSystem"] as? String)?.isEmpty == false)
            try daemon.add("live.jpg", Photo.jpeg("Live"))
            #expect(await eventually(within: 3) { await Self.ids(daemon)["live.jpg"] != nil })
        }
    }
}
