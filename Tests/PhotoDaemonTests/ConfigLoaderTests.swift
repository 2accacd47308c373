import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

@Suite struct ConfigLoaderTests {
    let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])

    /// The repository's config/photod.toml, found from this source file.
    static var shippedConfig: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/photod.toml").path
    }

    @Test func theShippedConfigStatesExactlyTheBuiltInDefaults() throws {
        let loaded = try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: Self.shippedConfig))
        #expect(loaded == DaemonConfig.defaults(paths: paths))
    }

    @Test func defaultsFollowXDG() {
        let defaults = DaemonConfig.defaults(paths: paths)
        #expect(defaults.roots == ["/home/ann/Pictures"])
        #expect(defaults.database == "/home/ann/.local/state/photod/index.sqlite")
        #expect(defaults.socket == "/run/user/1000/photod/io.photod")
    }

    @Test func thePicturesFolderComesFromUserDirs() throws {
        let dir = try TemporaryDirectory()
        try dir.write("config/user-dirs.dirs", Array("# x\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8))
        let custom = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": dir.file("config")])
        #expect(custom.pictures == "/home/ann/Bilder")
    }

    @Test func fileValuesApplyAndFlagsWin() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array("""
            roots = ["~/Photos", "/srv/photos"]
            database = "/var/tmp/x.sqlite"
            max_connections = 5
            [groups]
            fallback = "Unsorted"
            case_insensitive = true
            boilerplate = []
            """.utf8))
        let fromFile = try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
        #expect(fromFile.roots == ["/home/ann/Photos", "/srv/photos"])
        #expect(fromFile.database == "/var/tmp/x.sqlite")
        #expect(fromFile.maxConnections == 5)
        #expect(fromFile.grouping == GroupingRules(fallbackName: "Unsorted", caseInsensitive: true, boilerplate: []))
        let flagged = try ConfigLoader(paths: paths).load(
            DaemonOverrides(configFile: file, roots: ["/flag"], database: "/flag.sqlite"))
        #expect(flagged.roots == ["/flag"])
        #expect(flagged.database == "/flag.sqlite")
        #expect(flagged.maxConnections == 5)
    }

    private func error(for text: String) throws -> ConfigError {
        let dir = try TemporaryDirectory()
        let file = try dir.write("bad.toml", Array(text.utf8))
        do {
            _ = try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
        } catch {
            #expect(error.file == file)
            return error
        }
        Issue.record("no error for \(text)")
        return ConfigError(file: "", key: nil, problem: "")
    }

    @Test func aWrongTypeNamesTheKey() throws {
        let problem = try error(for: "max_connections = \"many\"")
        #expect(problem.key == "max_connections")
        #expect(problem.problem.contains("expected an integer"))
    }

    @Test func anUnknownKeyIsRefusedWithItsNameAndTheKeysItWasLikelyMeantToBe() throws {
        let roots = try error(for: "rots = [\"/x\"]")
        #expect(roots.key == "rots")
        #expect(roots.problem.hasPrefix("unknown key; did you mean \"roots\"?"), "\(roots.problem)")
        let fallback = try error(for: "[groups]\nfallbak = \"x\"")
        #expect(fallback.key == "groups.fallbak")
        #expect(fallback.problem.contains("did you mean \"groups.fallback\"?"), "\(fallback.problem)")
        #expect(try error(for: "max_conections = 3").problem.contains("did you mean \"max_connections\""))
        let nothingNear = try error(for: "colour = \"blue\"")
        #expect(nothingNear.problem == "unknown key (see config/photod.toml for the keys photod reads)")
    }

    @Test func relativePathsOfFlagsAreTakenFromTheWorkingFolderAndOfTheFileFromHome() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array("""
            roots = ["Pictures", "./Camera/../Phone/", "/srv/photos/"]
            database = "state/index.sqlite"
            """.utf8))
        let loader = ConfigLoader(paths: paths, workingDirectory: "/work/here")
        let fromFile = try loader.load(DaemonOverrides(configFile: file))
        #expect(fromFile.roots == ["/home/ann/Pictures", "/home/ann/Phone", "/srv/photos"])
        #expect(fromFile.database == "/home/ann/state/index.sqlite")
        let flagged = try loader.load(DaemonOverrides(configFile: file, roots: ["lib", "../other", "~/x", "/abs"],
                                                      database: "i.sqlite", socket: "run/s"))
        #expect(flagged.roots == ["/work/here/lib", "/work/other", "/home/ann/x", "/abs"])
        #expect(flagged.database == "/work/here/i.sqlite")
        #expect(flagged.socket == "/work/here/run/s")
    }

    @Test func outOfRangeAndBadEnumValuesAreRefused() throws {
        #expect(try error(for: "max_connections = 0").problem.contains("out of range"))
        #expect(try error(for: "log_level = \"loud\"").key == "log_level")
        #expect(try error(for: "roots = []").key == "roots")
        #expect(try error(for: "roots = [1]").key == "roots")
    }

    @Test func theThumbnailsTableSetsWorkersTimeLimitCacheAndPrefill() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array("""
            [thumbnails]
            workers = 3
            timeout = 5
            prefill = true
            cache_folder = "~/thumbs"
            worker = "/opt/photod/photod-thumbnailer"
            """.utf8))
        let loaded = try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
        #expect(loaded.thumbnails.workers == 3 && loaded.thumbnails.maxWorkers(cores: 2) == 3)
        #expect(loaded.thumbnails.timeout == 5 && loaded.thumbnails.prefill)
        #expect(loaded.thumbnails.cacheFolder == "/home/ann/thumbs")
        #expect(loaded.thumbnails.worker == "/opt/photod/photod-thumbnailer")
        // By default: one worker per core, at most 4.
        #expect(DaemonConfig.defaults(paths: paths).thumbnails.maxWorkers(cores: 2) == 2)
        #expect(DaemonConfig.defaults(paths: paths).thumbnails.maxWorkers(cores: 16) == 4)
        #expect(try error(for: "[thumbnails]\ntimeout = 0").key == "thumbnails.timeout")
        #expect(try error(for: "[thumbnails]\ncache_folder = \"relative\"").key == "thumbnails.cache_folder")
        #expect(try error(for: "[thumbnails]\nworkres = 2").key == "thumbnails.workres")
    }

    @Test func theImportTableSetsAFolderInsideARootAndTheSizeBound() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("photod.toml", Array("""
            roots = ["~/Pictures", "/srv/100% photos"]
            [import]
            folder = "~/Pictures/From apps/%Y-%m-%d"
            max_bytes = 1048576
            """.utf8))
        let loaded = try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file))
        #expect(loaded.importing.folder == "/home/ann/Pictures/From apps/%Y-%m-%d")
        #expect(loaded.importing.maxBytes == 1 << 20)
        // By default: the first root's Imported/%Y/%m, a root's own % kept literal.
        #expect(ImportConfig().template(roots: ["/home/ann/Pictures"]) == "/home/ann/Pictures/Imported/%Y/%m")
        #expect(ImportConfig().template(roots: ["/srv/100% photos"]) == "/srv/100%% photos/Imported/%Y/%m")
        #expect(try ImportFolder(template: ImportConfig().template(roots: ["/srv/100% photos"]))
            .folder(taken: "2021-07-04T10:30:00", today: "2026-11-28T00:00:00") == "/srv/100% photos/Imported/2021/07")
        #expect(DaemonConfig.defaults(paths: paths).importing.maxBytes == 512 << 20)
        #expect(try error(for: "[import]\nfolder = \"/tmp/elsewhere/%Y\"").key == "import.folder",
                "a folder outside the roots would take photos nobody indexes")
        #expect(try error(for: "[import]\nfolder = \"~/Pictures/%H\"").key == "import.folder")
        #expect(try error(for: "[import]\nfolder = \"Imported\"").key == "import.folder")
        #expect(try error(for: "[import]\nmax_bytes = 0").key == "import.max_bytes")
    }

    @Test func brokenTOMLGivesTheLine() throws {
        let problem = try error(for: "log_level = \"info\"\nmax_connections = = 3\n")
        #expect(problem.key == nil)
        #expect(problem.problem.contains("line 2"))
    }

    @Test func aMissingExplicitConfigIsAnError() {
        #expect(throws: ConfigError.self) {
            try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: "/nonexistent/photod.toml"))
        }
    }

    @Test func aMissingDefaultConfigMeansDefaults() throws {
        let dir = try TemporaryDirectory()
        let quiet = DefaultPaths(environment: ["HOME": dir.path, "XDG_RUNTIME_DIR": "/run/user/1"])
        #expect(try ConfigLoader(paths: quiet).load(DaemonOverrides()) == DaemonConfig.defaults(paths: quiet))
    }
}

/// `[groups] description_sources`: which sources name a photo's group, in which order.
@Suite struct DescriptionSourcesConfigTests {
    private let files = ConfigText()
    private var paths: DefaultPaths { files.paths }
    private func load(_ text: String) throws -> DaemonConfig { try files.load(text) }
    private func problem(_ text: String) throws -> ConfigError? { try files.problem(text) }

    @Test func theOrderIsTakenAsWritten() throws {
        let config = try load("[groups]\ndescription_sources = [\"sidecar\", \"iptc\"]")
        #expect(config.descriptionSources == [.sidecar, .iptc])
        #expect(DaemonConfig.defaults(paths: paths).descriptionSources == [.exif, .xmp, .iptc, .sidecar])
    }

    @Test func unknownRepeatedOrNoSourcesAreRefusedWithTheKey() throws {
        let unknown = try #require(try problem("[groups]\ndescription_sources = [\"exif\", \"comment\"]"))
        #expect(unknown.key == "groups.description_sources")
        #expect(unknown.problem.contains("\"comment\" is not one of exif, xmp, iptc, sidecar"))
        let twice = try #require(try problem("[groups]\ndescription_sources = [\"xmp\", \"xmp\"]"))
        #expect(twice.problem.contains("listed twice"))
        let none = try #require(try problem("[groups]\ndescription_sources = []"))
        #expect(none.problem.contains("at least one"))
    }
}
