import FileSystem
import Foundation
import Logging
import Metadata
import NIOPosix
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

/// What a start with changed `[groups]` settings does to an index built under the old ones: real
/// JPEGs scanned into a real index, then the regrouper, then (where files are read again) a scan.
@Suite struct RegrouperTests {
    /// A library folder, an index over it and threads to scan it with.
    final class Rig: Sendable {
        let dir: TemporaryDirectory
        /// The library root, canonical (as the index stores paths).
        let library: String
        let store: Store
        let pool: NIOThreadPool
        let log = LogRecorder()

        /// An empty library and index in a new temporary folder.
        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: dir.file("library"), withIntermediateDirectories: true)
            library = FileSystem.canonicalPath(PathBytes(dir.file("library")))?.description ?? ""
            store = try Store(path: dir.file("state/index.sqlite"))
            pool = NIOThreadPool(numberOfThreads: 2)
            pool.start()
        }

        /// Writes a JPEG at `name` in the library with this EXIF and XMP description (nil: none).
        func photo(_ name: String, exif: String?, xmp: String? = nil) throws {
            let bytes = JPEGFixture.make(exif: ExifFixture(description: exif),
                                         xmp: xmp.map { XMPFixture(description: $0).packet() })
            try dir.write("library/" + name, bytes)
        }

        /// Reconciles the library as photod started with `rules` and `sources` would.
        func scan(rules: GroupingRules = GroupingRules(),
                  sources: [Metadata.DescriptionSource] = DescriptionSources.defaultOrder) async throws -> ScanReport {
            let scanner = PhotoDaemon.Scanner(store: store, reader: AssetReader(rules: rules, sources: sources), pool: pool,
                                              parallelism: 2, batchSize: 100, logger: log.logger())
            return try await scanner.reconcile(root: PathBytes(library), progress: ScanProgressTracker())
        }

        /// What photod's start runs: the regrouper for `rules` and `sources`, sources first.
        func start(rules: GroupingRules = GroupingRules(),
                   sources: [Metadata.DescriptionSource] = DescriptionSources.defaultOrder) async throws {
            let regrouper = Regrouper(store: store, rules: rules, sources: sources, logger: log.logger())
            try await regrouper.rereadIfSourcesChanged()
            try await regrouper.regroupIfRulesChanged()
        }

        /// Every asset by file name: its id, group key, group name and stamp.
        func assets() async throws -> [String: StoredAsset] {
            var byName: [String: StoredAsset] = [:]
            for asset in try await store.read({ try $0.allAssets() }) {
                byName[String(asset.path.description.dropFirst(library.count + 1))] = asset
            }
            return byName
        }

        /// Group key of each file, by file name.
        func groupKeys() async throws -> [String: String] {
            try await assets().mapValues(\.content.groupKey)
        }

        /// Runs `body` with a new rig and releases the index and threads afterwards.
        static func with(_ body: (Rig) async throws -> Void) async throws {
            let rig = try Rig()
            try await withClosing(rig, close: { await $0.close() }, body)
        }

        /// Releases the index and the threads.
        private func close() async {
            await store.close()
            try? await pool.shutdownGracefully()
        }
    }

    /// The description-choice fingerprint stored for `sources` and the built-in boilerplate list
    /// (which is longer than the first one, so it is part of it).
    static func choice(_ sources: [Metadata.DescriptionSource]) -> String {
        DescriptionSources.fingerprint(sources) + "|boilerplate=" + GroupingRules().boilerplateFingerprint
    }

    @Test func aNewIndexTakesTheSettingsWithoutRefilingOrRereading() async throws {
        try await Rig.with { rig async throws in
            try await rig.start()
            await #expect(try rig.store.read { try $0.setting("grouping") } == GroupingRules().fingerprint)
            await #expect(try rig.store.read { try $0.setting("description_sources") } == Self.choice(DescriptionSources.defaultOrder))
            await #expect(try rig.store.read { try $0.currentToken() } == 0, "nothing was written to the assets")
            #expect(!rig.log.contains("re-filed"))
            #expect(!rig.log.contains("read again"))
        }
    }

    @Test func changedRulesRefileEveryStoredAssetUnderItsId() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("a.jpg", exif: "Beach")
            try rig.photo("b.jpg", exif: "beach")
            try rig.photo("c.jpg", exif: "Garden")
            try rig.photo("d.jpg", exif: nil)
            try rig.photo("e.jpg", exif: "SONY DSC")
            try await rig.start()
            _ = try await rig.scan()
            let before = try await rig.assets()
            #expect(before.mapValues(\.content.groupKey) == [
                "a.jpg": "Beach", "b.jpg": "beach", "c.jpg": "Garden", "d.jpg": "", "e.jpg": ""])

            // The same boilerplate: which description each photo has does not change, only its group.
            let rules = GroupingRules(fallbackName: "Unsorted", caseInsensitive: true)
            try await rig.start(rules: rules)
            let after = try await rig.assets()
            #expect(after.mapValues(\.content.groupKey) == [
                "a.jpg": "beach", "b.jpg": "beach", "c.jpg": "garden", "d.jpg": "", "e.jpg": ""])
            #expect(after["d.jpg"]?.groupName == "Unsorted")
            #expect(after.mapValues(\.id) == before.mapValues(\.id), "re-filed, not re-added")
            #expect(after.mapValues(\.stamp) == before.mapValues(\.stamp), "and not to be read again")
            #expect(after.mapValues(\.content.description) == before.mapValues(\.content.description))
            // b.jpg was filed under "beach" already; d.jpg and e.jpg changed their group's name: four.
            #expect(rig.log.contains("grouping rules changed since the index was built: re-filed 4 assets"))
            await #expect(try rig.store.read { try $0.setting("grouping") } == rules.fingerprint)
            await #expect(try rig.store.read { try $0.groups() }.map(\.key).sorted() == ["", "beach", "garden"])

            // What the regrouper filed is what a scan with the new rules keeps: nothing to redo.
            let rescan = try await rig.scan(rules: rules)
            #expect(rescan.changed == 0)
        }
    }

    @Test func unchangedRulesTouchNothingEvenWrittenDifferently() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("a.jpg", exif: "Beach")
            try await rig.start()
            _ = try await rig.scan()
            // File the asset somewhere the rules would not: only a change of rules looks again.
            let asset = try #require(try await rig.assets()["a.jpg"])
            var content = asset.content
            content.groupKey = "Elsewhere"
            content.groupSpelling = "Elsewhere"
            var batch = WriteBatch()
            batch.updates = [WriteBatch.Update(id: asset.id, path: asset.path, stamp: asset.stamp, content: content)]
            _ = try await rig.store.write { [batch] in try $0.apply(batch) }
            let token = try await rig.store.read { try $0.currentToken() }

            try await rig.start()
            let respelled = GroupingRules(boilerplate: GroupingRules.defaultBoilerplate.reversed().map { $0.uppercased() })
            try await rig.start(rules: respelled)
            #expect(try await rig.groupKeys() == ["a.jpg": "Elsewhere"])
            await #expect(try rig.store.read { try $0.currentToken() } == token)
            #expect(!rig.log.contains("re-filed"))

            // A real change does look again.
            try await rig.start(rules: GroupingRules(fallbackName: "Unsorted"))
            #expect(try await rig.groupKeys() == ["a.jpg": "Beach"])
            #expect(rig.log.contains("re-filed 1 assets"))
        }
    }

    @Test func changedDescriptionSourcesHaveEveryFileReadAgainUnderItsId() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("a.jpg", exif: "Beach", xmp: "Sea")
            try rig.photo("b.jpg", exif: "Garden")
            try await rig.start()
            _ = try await rig.scan()
            let before = try await rig.assets()
            #expect(before.mapValues(\.content.groupKey) == ["a.jpg": "Beach", "b.jpg": "Garden"])

            let sources: [Metadata.DescriptionSource] = [.xmp, .exif]
            try await rig.start(sources: sources)
            #expect(rig.log.contains("description sources or boilerplate changed (sources xmp, exif): every file will be read again"))
            await #expect(try rig.store.read { try $0.setting("description_sources") } == Self.choice(sources))
            let marked = try await rig.assets()
            #expect(marked.allSatisfy { name, asset in asset.stamp != before[name]?.stamp }, "every stamp was forgotten")
            #expect(marked.mapValues(\.content) == before.mapValues(\.content), "nothing else changed yet")

            let report = try await rig.scan(sources: sources)
            #expect(report.read == 2)
            let after = try await rig.assets()
            #expect(after.mapValues(\.content.groupKey) == ["a.jpg": "Sea", "b.jpg": "Garden"])
            #expect(after["a.jpg"]?.content.descriptionSource == "xmp")
            #expect(after.mapValues(\.id) == before.mapValues(\.id))
        }
    }

    @Test func unchangedDescriptionSourcesReadNothingAgain() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("a.jpg", exif: "Beach", xmp: "Sea")
            try await rig.start()
            _ = try await rig.scan()
            let before = try await rig.assets()
            try await rig.start()
            #expect(try await rig.assets() == before)
            #expect(try await rig.scan().read == 0)
            #expect(!rig.log.contains("read again"))
        }
    }

    /// Which description a photo is filed by depends on the boilerplate ("the first usable one"):
    /// re-filing by the description chosen under the old list is not enough, the file must be
    /// read again (this failed before the boilerplate counted in the sources' fingerprint).
    @Test func aBoilerplateChangeFilesAPhotoByItsFirstUsableDescription() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("a.jpg", exif: "Beach", xmp: "Sea")
            try await rig.start()
            _ = try await rig.scan()
            #expect(try await rig.groupKeys() == ["a.jpg": "Beach"])

            // "Beach" is now a camera default: the XMP caption is the photo's first usable description.
            let rules = GroupingRules(boilerplate: GroupingRules.defaultBoilerplate + ["Beach"])
            guard case .asset(_, let fresh) = AssetReader(rules: rules).read(PathBytes((rig.library + "/a.jpg"))) else {
                Issue.record("the photo cannot be read")
                return
            }
            #expect(fresh.groupKey == "Sea")
            try await rig.start(rules: rules)
            _ = try await rig.scan(rules: rules)
            let filed = try await rig.groupKeys()["a.jpg"]
            #expect(filed == fresh.groupKey)
        }
    }

    /// An index built when the fallback group was filed under its name (v1) is regrouped at the
    /// upgrade: the photo described "Other" leaves the fallback group, and an app whose limited
    /// selection named "Other" keeps seeing both groups.
    @Test func theUpgradeMovesALiteralOtherPhotoOutOfTheFallbackGroup() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("described-other.jpg", exif: "Other")
            try rig.photo("undescribed.jpg", exif: nil)
            try rig.photo("beach.jpg", exif: "Beach")
            try await rig.start()
            _ = try await rig.scan()
            // Made into what a v1 index holds: both "Other" photos under the key "Other".
            var batch = WriteBatch()
            for asset in try await rig.assets().values where asset.content.groupSpelling == "Other" {
                var content = asset.content
                content.groupKey = "Other"
                batch.updates.append(WriteBatch.Update(id: asset.id, path: asset.path, stamp: asset.stamp, content: content))
            }
            _ = try await rig.store.write { [batch] in try $0.apply(batch) }
            await #expect(try rig.store.read { try $0.groups() }.map(\.key).sorted() == ["Beach", "Other"])
            let v1 = "v1|fallback=Other|ci=false|boilerplate=" + GroupingRules().boilerplateFingerprint
            try await rig.store.write { try $0.setSetting("grouping", to: v1) }
            let legacy = AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000, status: .limited, groups: ["Other"])
            let beachOnly = AppAuthorization(app: "exe:/usr/bin/other-viewer", uid: 1000, status: .limited, groups: ["Beach"])
            for record in [legacy, beachOnly] { try await rig.store.write { try $0.saveApp(try Authorizer.stored(record)) } }
            let token = try await rig.store.read { try $0.currentToken() }

            try await rig.start()
            let filed = try await rig.groupKeys()
            #expect(filed == ["described-other.jpg": "Other", "undescribed.jpg": "", "beach.jpg": "Beach"])
            await #expect(try rig.store.read { try $0.groups() }.map { "\($0.key)=\($0.name):\($0.count)" }.sorted()
                == ["=Other:1", "Beach=Beach:1", "Other=Other:1"])
            let change = try #require(try await rig.store.read { try $0.changes(after: token) }.first)
            #expect(change.fallbackChanged == true, "subscribers hear that the fallback group is a new group")
            #expect(change.groupsChanged == ["Other", "Other"])

            let records = try await rig.store.read { try $0.apps() }
                .compactMap { try? JSONDecoder().decode(AppAuthorization.self, from: $0.record) }
            let viewer = try #require(records.first { $0.app == legacy.app })
            #expect(viewer.groups == ["Other"] && viewer.fallback == true, "the selection keeps both groups")
            #expect(records.first { $0.app == beachOnly.app }?.fallback == nil)
            #expect(rig.log.contains("1 limited selections that named it keep both"))

            // Done once: a later start changes nothing, and a new selection of the photos
            // described Other alone stays so.
            let after = try await rig.store.read { try $0.currentToken() }
            try await rig.store.write { try $0.saveApp(try Authorizer.stored(legacy)) }
            try await rig.start()
            await #expect(try rig.store.read { try $0.currentToken() } == after)
            let kept = try await rig.store.read { try $0.apps() }
                .compactMap { try? JSONDecoder().decode(AppAuthorization.self, from: $0.record) }
            #expect(kept.first { $0.app == legacy.app }?.fallback == nil)
        }
    }

    /// The longer built-in boilerplate list has only the photos it now covers read again, and
    /// they are filed by their next usable description.
    @Test func aLongerBoilerplateListRereadsOnlyThePhotosItNowCovers() async throws {
        try await Rig.with { rig async throws in
            try rig.photo("pentax.jpg", exif: "PENTAX Image", xmp: "Fox")
            try rig.photo("pentax-only.jpg", exif: "PENTAX Image")
            try rig.photo("beach.jpg", exif: "Beach", xmp: "Sea")
            try rig.photo("olympus.jpg", exif: "OLYMPUS DIGITAL CAMERA", xmp: "Harbour")
            let first = GroupingRules(boilerplate: GroupingRules.firstDefaultBoilerplate)
            try await rig.start(rules: first)
            _ = try await rig.scan(rules: first)
            #expect(try await rig.groupKeys() == [
                "pentax.jpg": "PENTAX Image", "pentax-only.jpg": "PENTAX Image", "beach.jpg": "Beach", "olympus.jpg": "Harbour"])
            await #expect(try rig.store.read { try $0.setting("description_sources") }
                == DescriptionSources.fingerprint(DescriptionSources.defaultOrder),
                          "the first built-in list leaves the fingerprint as older indexes have it")
            let before = try await rig.assets()

            try await rig.start()
            #expect(rig.log.contains("camera boilerplate added: 2 files whose description is now boilerplate"))
            #expect(!rig.log.contains("every file will be read again"))
            let marked = try await rig.assets()
            #expect(marked["beach.jpg"]?.stamp == before["beach.jpg"]?.stamp)
            #expect(marked["olympus.jpg"]?.stamp == before["olympus.jpg"]?.stamp)
            #expect(marked["pentax.jpg"]?.stamp != before["pentax.jpg"]?.stamp)

            let report = try await rig.scan()
            #expect(report.read == 2)
            #expect(try await rig.groupKeys() == [
                "pentax.jpg": "Fox", "pentax-only.jpg": "", "beach.jpg": "Beach", "olympus.jpg": "Harbour"])
            #expect(try await rig.assets().mapValues(\.id) == before.mapValues(\.id))
        }
    }

    @Test func onlyAListThatGrewIsReadAgainInPart() {
        let sources = DescriptionSources.fingerprint(DescriptionSources.defaultOrder)
        let first = sources
        let longer = sources + "|boilerplate=" + GroupingRules().boilerplateFingerprint
        let added = Regrouper.boilerplateAdded(from: first, to: longer)
        #expect(added?.contains("pentax image") == true)
        #expect(added?.contains("sony dsc") == false, "already boilerplate before")
        #expect(Regrouper.boilerplateAdded(from: longer, to: first) == nil, "entries dropped: every file")
        let otherSources = DescriptionSources.fingerprint([.xmp, .exif])
        #expect(Regrouper.boilerplateAdded(from: first, to: otherSources + "|boilerplate=sony dsc") == nil)
    }
}
