import Foundation
import PhotoTestSupport
import Testing

/// Issue 11 items 16, 18, 19 with the real binary: a full index, two daemons on one index, an
/// empty index.
@Suite(.serialized) struct IndexResilienceTests {
    private func status(_ daemon: DaemonHarness) async throws -> [String: Any] {
        try await daemon.photoctlJSON(["status"])
    }

    /// Waits until `condition` holds for the daemon's status.
    private func waitForStatus(_ daemon: DaemonHarness, timeout: TimeInterval = 60,
                               _ condition: ([String: Any]) -> Bool) async throws -> Bool {
        await eventually(within: timeout) {
            guard let current = try? await status(daemon) else { return false }
            return condition(current)
        }
    }

    /// Renames the folder of 300 photos until the index is full: each rename is a change
    /// listing every photo, and 1 MiB holds only a few of them. Returns the last folder name.
    private func fillByRenaming(_ daemon: DaemonHarness) async throws -> String {
        var folder = "trip-0"
        for round in 1...40 {
            let token = try await status(daemon)["token"] as? Int ?? 0
            let next = "trip-\(round)"
            try FileManager.default.moveItem(atPath: daemon.library + "/" + folder, toPath: daemon.library + "/" + next)
            folder = next
            let settled = try await waitForStatus(daemon, timeout: 10) { current in
                (current["token"] as? Int ?? 0) > token || current["state"] as? String == "degraded"
            }
            #expect(settled)
            if try await status(daemon)["state"] as? String == "degraded" { return folder }
        }
        Issue.record("the index never filled up")
        return folder
    }

    @Test func aFullIndexLeavesPhotodServingDegradedAndItCatchesUpWhenThereIsRoom() async throws {
        let daemon = try DaemonHarness(settings: "index_size_limit = 1\nlog_level = \"debug\"\n")
        for n in 0..<300 {
            try daemon.add("trip-0/IMG_20261123_\(100_000 + n).jpg", Photo.jpeg("Trip day \(n % 10)"))
        }
        try await daemon.start()
        await #expect(try status(daemon)["state"] as? String == "ready")
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let folder = try await fillByRenaming(daemon)
        let full = try await status(daemon)
        let problems = full["problems"] as? [String] ?? []
        #expect(problems.first?.contains("the index cannot be written (database or disk is full)") == true)
        #expect(problems.first?.contains("index_size_limit") == true)
        #expect(await daemon.logContains("the index cannot be written"))
        // It serves what it has, and a Rescan that cannot be recorded says why.
        await #expect(try daemon.photoctl(["groups"]).status == 0)
        let rescan = try await daemon.photoctl(["rescan"])
        #expect(rescan.status == 1)
        #expect(rescan.stderr.contains("the index cannot be written (database or disk is full); photod catches up"))

        // A live change while full is not lost, and photod keeps running.
        try daemon.add("late/after-the-disk-filled.jpg", Photo.jpeg("Late"))
        // Probed, not slept on: the catch-up walk has found the new file (301 files, one to read),
        // so the change waits for room instead of being lost.
        #expect(await eventually(within: 15) { daemon.log.contains("301 files, 1 to read") }, "\(daemon.log)")
        #expect(daemon.isRunning)
        // A catch-up reconcile may be under way (`scanning`); it ends degraded again.
        await #expect(try waitForStatus(daemon, timeout: 10) { $0["state"] as? String == "degraded" })

        // A start-up on a full index serves it, degraded, instead of exiting.
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        await #expect(try status(daemon)["state"] as? String == "degraded")
        #expect(daemon.isRunning)

        // Room again: raise the limit and reload; what was missed arrives, ids kept.
        try daemon.writeConfig(settings: "index_size_limit = 0\n", trusted: DaemonHarness.defaultTrusted)
        daemon.send(SIGHUP)
        let caughtUp = try await waitForStatus(daemon) { current in
            current["state"] as? String == "ready" && current["assets"] as? Int == 301
        }
        #expect(caughtUp, "status: \(daemon.log)")
        let after = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        #expect(after["late/after-the-disk-filled.jpg"] != nil)
        #expect(after["\(folder)/IMG_20261123_100007.jpg"] == ids["trip-0/IMG_20261123_100007.jpg"])
        #expect(await daemon.logContains("the index can be written again"))
    }

    @Test func aTokenPrunedByBytesGetsAResyncAndANewerOneAReplay() async throws {
        let daemon = try DaemonHarness(settings: "change_retention_bytes = 4096\n")
        try await daemon.start()
        let live = try await ChangeRecorder.start(socket: daemon.socket)
        // About 150 bytes a change: 40 of them are more than 4 KiB, far fewer than 10,000.
        for n in 0..<40 {
            try daemon.add("p\(n).jpg", Photo.jpeg("G"))
            try await live.wait { $0.inserted.count == n + 1 }
        }
        let first = try #require(live.received.first?.token)
        let last = try #require(live.received.last?.token)
        let stale = try await ChangeRecorder.start(socket: daemon.socket, since: first)
        try await stale.wait { !$0.received.isEmpty }
        #expect(stale.received.first?.resync == true)
        let recent = try await ChangeRecorder.start(socket: daemon.socket, since: last - 3)
        try await recent.wait { $0.received.count == 3 }
        #expect(recent.received.map(\.token) == [last - 2, last - 1, last])
        #expect(recent.received.allSatisfy { !$0.resync })
    }

    @Test func aSecondPhotodOnTheSameIndexExits75AndNamesTheFirst() async throws {
        let first = try DaemonHarness()
        try first.add("a.jpg", Photo.jpeg("A"))
        try await first.start()
        let firstPid = try #require(first.pid)
        // The same index, its own socket: only the lock stands between them.
        let second = try await ProcessRunner.run(
            Binaries.photod, ["--root", first.library, "--database", first.database,
                              "--socket", first.dir.file("run/second/io.photod")],
            environment: first.environment, timeout: 30)
        #expect(second.status == 75)
        #expect(second.stderr.contains("index \(first.database) is in use by photod pid \(firstPid)"))
        // The first one is untouched.
        #expect(first.isRunning)
        await #expect(try status(first)["assets"] as? Int == 1)
        #expect(try String(contentsOfFile: first.database + ".lock", encoding: .utf8) == "\(firstPid)\n")
    }

    @Test func anEmptyIndexIsMovedAsideWithALogLineAndRebuilt() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        await #expect(daemon.stop() == 0)
        #expect(truncate(daemon.database, 0) == 0)
        try await daemon.start()
        let folder = URL(fileURLWithPath: daemon.database).deletingLastPathComponent().path
        let broken = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix("index.sqlite.broken-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(broken.count == 1)
        #expect(await daemon.logContains("could not be used: it is empty (0 bytes). It was moved to \(folder)/\(broken.first ?? "?")"))
        await #expect(try status(daemon)["assets"] as? Int == 1)
    }
    /// The bulk-load mark in the index (`bulk_load_above`, read with Python's sqlite3, which
    /// the tests have anyway) and the number of photos written; nil when it cannot be read.
    private func bulkLoad(of database: String) async -> (marked: Bool, assets: Int)? {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True, timeout=5)
            marked = db.execute("SELECT count(*) FROM settings WHERE key = 'bulk_load_above'").fetchone()[0]
            print(marked, db.execute("SELECT count(*) FROM assets").fetchone()[0])
            """
        guard let result = try? await ProcessRunner.run("/usr/bin/python3", ["-c", script, database]), result.status == 0
        else { return nil }
        let fields = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return fields.count == 2 ? (fields[0] == 1, fields[1]) : nil
    }

    /// Removes an index and the files photod keeps beside it.
    private func removeIndex(_ database: String) throws {
        let folder = (database as NSString).deletingLastPathComponent
        let name = (database as NSString).lastPathComponent
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }  // none yet
        for file in files where file.hasPrefix(name) {
            try FileManager.default.removeItem(atPath: folder + "/" + file)
        }
    }

    @Test func killedInTheMiddleOfAFirstIndexItFinishesAtTheNextStart() async throws {
        let daemon = try DaemonHarness()
        let total = 5000
        let places = ["Alps", "Bern", "Chur", "Davos", "Engadin", "Flims", "Gstaad", "Horgen", "Ilanz", "Jura"]
        for n in 0..<total {
            try daemon.add("day-\(n % 10)/IMG_\(10_000 + n).jpg", Photo.jpeg("Trip to \(places[n % 10])"))
        }
        // Killed once the first photos are written without their query indexes, before the load's
        // end removes its mark. A fast machine can end the load between the look and the kill:
        // then the try does not count, and the index is made again from nothing.
        var killedMidLoad = false
        for _ in 0..<5 where !killedMidLoad {
            try removeIndex(daemon.database)
            let process = try TestChild(Binaries.photod,
                                        ["--root", daemon.library, "--database", daemon.database, "--socket", daemon.socket],
                                        environment: daemon.environment, output: .null, error: .null)
            let deadline = Date().addingTimeInterval(120)
            var seen = false
            while Date() < deadline, process.isRunning, !seen {
                if let state = await bulkLoad(of: daemon.database), state.marked, state.assets > 0 {
                    seen = true
                } else {
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            await process.kill()
            let stillMarked = await bulkLoad(of: daemon.database)?.marked == true
            killedMidLoad = seen && stillMarked
        }
        try #require(killedMidLoad, "photod was killed in the middle of a bulk load in one of five tries")
        try await daemon.start(timeout: 120)
        await #expect(bulkLoad(of: daemon.database)?.marked == false, "the next start finished it")
        await #expect(try status(daemon)["assets"] as? Int == total)
        let listed = try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)
        #expect(listed.count == total)
        #expect(Set(listed.values).count == total, "every photo once, with an id of its own")
        let found = try await daemon.photoctlJSON(["find", "davos trip", "--limit", "10000"]).assets
        #expect(found.count == total / 10)
        // Started again, nothing changes: the same ids.
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        await #expect(try daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library) == listed)
    }
}
