#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Logging
import Metadata
import PhotoAPI
import SystemPackage
import TOML

/// A config problem, said in one line that names the file and the key.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let key: String?
    public let problem: String

    public var description: String {
        if let key { return "\(file): \(key): \(problem)" }
        return "\(file): \(problem)"
    }
}

/// Reads `photod.toml` and merges defaults, file and flags (flags win).
public struct ConfigLoader {
    private let paths: DefaultPaths
    private let workingDirectory: String

    /// A loader resolving defaults and "~" with `paths`, and the relative paths of flags against
    /// `workingDirectory` (where photod was started).
    public init(paths: DefaultPaths = DefaultPaths(),
                workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.paths = paths
        self.workingDirectory = workingDirectory
    }

    /// A path from a flag: relative to where photod was started, as for any command.
    private func flagPath(_ path: String) -> String {
        AbsolutePath.resolve(paths.expandingTilde(path), against: workingDirectory)
    }

    /// A path from the config file: relative to the home folder, wherever photod was started
    /// (the user service starts in it too).
    func filePath(_ path: String) -> String {
        AbsolutePath.resolve(paths.expandingTilde(path), against: paths.home)
    }

    /// The effective configuration. A missing default config file is fine; a missing
    /// `--config` file, bad TOML, an unknown key or a wrong type is a `ConfigError`.
    public func load(_ overrides: DaemonOverrides) throws(ConfigError) -> DaemonConfig {
        var config = DaemonConfig.defaults(paths: paths)
        let file = overrides.configFile ?? paths.configFile
        if let text = try read(file, required: overrides.configFile != nil) {
            try apply(text, from: file, to: &config)
        }
        if !overrides.roots.isEmpty { config.roots = overrides.roots.map(flagPath) }
        if let database = overrides.database { config.database = flagPath(database) }
        if let socket = overrides.socket { config.socket = flagPath(socket) }
        if let level = overrides.logLevel { config.logLevel = level }
        // Checked once the roots are known: a folder outside them would take photos nobody indexes.
        if let folder = config.importing.folder, !ImportConfig.isInside(folder, roots: config.roots) {
            let roots = config.roots.map { ShownText.of($0) }.joined(separator: ", ")
            throw ConfigError(file: file, key: "import.folder", problem: "\"\(ShownText.of(folder))\" is not inside "
                              + "any of the roots (\(roots)), so nothing imported there would be indexed")
        }
        try Self.checkPollIntervals(of: config, file: file)
        if let ignored = config.importing.ignoredFolder(roots: config.roots, ignore: config.ignore) {
            throw ConfigError(file: file, key: "library.ignore", problem: "it ignores the import folder "
                              + "\"\(ShownText.of(ignored))\", so nothing imported there would stay indexed")
        }
        return config
    }

    /// The most a config file may hold: the shipped one, every setting commented, is about
    /// 6 kB, and a file is read whole before it is parsed.
    static let maxConfigBytes = 1 << 20

    /// The text of `file`; nil when it does not exist and is not `required`. Only a regular
    /// file of at most `maxConfigBytes` is read: `--config /dev/zero` or a FIFO is an error,
    /// not a hang or a heap filled with zeros.
    private func read(_ file: String, required: Bool) throws(ConfigError) -> String? {
        func failure(_ problem: String) -> ConfigError { ConfigError(file: file, key: nil, problem: problem) }
        // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                if required { throw failure("no such file") }
                return nil
            }
            throw failure("cannot read: \(Errno(rawValue: code))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw failure("cannot read: it is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= Self.maxConfigBytes {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read: \(Errno(rawValue: errno))")
            }
            bytes += chunk[..<count]
        }
        guard bytes.count <= Self.maxConfigBytes else {
            throw failure("cannot read: it is larger than \(Self.maxConfigBytes >> 20) MiB, far more than any setting needs")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("cannot read: it is not UTF-8 text") }
        return text
    }

    /// Applies the TOML `text` on top of `config`.
    public func apply(_ text: String, from file: String, to config: inout DaemonConfig) throws(ConfigError) {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigError(file: file, key: nil, problem: error.description)
        }
        var reader = TableReader(table: table, file: file, prefix: "")
        if let roots = try reader.strings("roots") {
            guard !roots.isEmpty else { throw reader.error("roots", "must name at least one folder") }
            config.roots = roots.map(filePath)
        }
        if let database = try reader.string("database") { config.database = filePath(database) }
        if let socket = try reader.string("socket") { config.socket = filePath(socket) }
        if let level = try reader.string("log_level") {
            guard let parsed = Logger.Level(rawValue: level) else {
                throw reader.error("log_level", "\"\(ShownText.of(level))\" is not one of "
                                   + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
            }
            config.logLevel = parsed
        }
        if let cap = try reader.int("max_connections", in: 1...65_536) { config.maxConnections = cap }
        try Self.readConnectionLimits(&reader, into: &config)
        if let interval = try reader.int("rescan_interval", in: 0...31_536_000) { config.rescanInterval = interval }
        if let interval = try reader.int("poll_interval", in: 1...86_400) { config.pollInterval = interval }
        if let interval = try reader.int("remote_poll_interval", in: 1...86_400) { config.remotePollInterval = interval }
        if var intervals = try reader.table("remote_poll_intervals") {
            config.remotePollIntervals = try readPollIntervals(&intervals)
        }
        if let watches = try reader.int("max_watches", in: 0...100_000_000) { config.maxWatches = watches }
        if let kept = try reader.int("change_retention", in: 1...100_000_000) { config.changeRetention = kept }
        if let bytes = try reader.int("change_retention_bytes", in: 4096...(1 << 36)) { config.changeRetentionBytes = bytes }
        if let mebibytes = try reader.int("index_size_limit", in: 0...(1 << 24)) {
            config.indexSizeLimit = mebibytes == 0 ? nil : mebibytes << 20
        }
        if let queue = try reader.int("subscriber_queue", in: 1...1_000_000) { config.subscriberQueue = queue }
        if var groups = try reader.table("groups") {
            var rules = config.grouping
            if let fallback = try groups.string("fallback") {
                guard !DescriptionText.normalize(fallback).isEmpty else {
                    throw groups.error("fallback", "must not be empty")
                }
                rules = GroupingRules(fallbackName: DescriptionText.normalize(fallback),
                                      caseInsensitive: rules.caseInsensitive, boilerplate: rules.boilerplate)
            }
            if let insensitive = try groups.bool("case_insensitive") {
                rules = GroupingRules(fallbackName: rules.fallbackName, caseInsensitive: insensitive,
                                      boilerplate: rules.boilerplate)
            }
            if let boilerplate = try groups.strings("boilerplate") {
                rules = GroupingRules(fallbackName: rules.fallbackName, caseInsensitive: rules.caseInsensitive,
                                      boilerplate: boilerplate)
            }
            if let names = try groups.strings("description_sources") {
                config.descriptionSources = try Self.descriptionSources(names, in: &groups)
            }
            try groups.rejectUnknownKeys()
            config.grouping = rules
        }
        if var permissions = try reader.table("permissions") {
            if let trusted = try permissions.strings("trusted") {
                if let bad = trusted.first(where: { $0.isEmpty || $0 == "*" }) {
                    throw permissions.error("trusted", "\"\(ShownText.of(bad))\" would trust every program; name executables or app ids")
                }
                config.trusted = trusted
            }
            if let restricted = try permissions.strings("restricted") {
                if restricted.contains("") { throw permissions.error("restricted", "an entry is empty") }
                config.authorization.restricted = restricted
            }
            if let timeout = try permissions.int("request_timeout", in: 1...86_400) {
                config.authorization.requestTimeout = TimeInterval(timeout)
            }
            try permissions.rejectUnknownKeys()
        }
        if var library = try reader.table("library") {
            if let patterns = try library.strings("ignore") { config.ignore = try Self.ignoreRules(patterns, in: &library) }
            try library.rejectUnknownKeys()
        }
        if var thumbnails = try reader.table("thumbnails") {
            try readThumbnails(&thumbnails, into: &config.thumbnails)
        }
        if var importing = try reader.table("import") {
            try readImport(&importing, into: &config.importing)
        }
        try reader.rejectUnknownKeys()
    }

    /// The `[import]` table: the folder template and the size bound.
    private func readImport(_ table: inout TableReader, into importing: inout ImportConfig) throws(ConfigError) {
        if let folder = try table.string("folder") {
            let expanded = paths.expandingTilde(folder)
            do {
                _ = try ImportFolder(template: expanded)
            } catch {
                throw table.error("folder", error.description)
            }
            importing.folder = expanded
        }
        if let bytes = try table.int("max_bytes", in: 1...(1 << 40)) { importing.maxBytes = bytes }
        try table.rejectUnknownKeys()
    }

    /// The `[thumbnails]` table: workers, time limit, cache folder and bound, prefill.
    private func readThumbnails(_ table: inout TableReader, into thumbnails: inout ThumbnailConfig) throws(ConfigError) {
        if let workers = try table.int("workers", in: 0...64) { thumbnails.workers = workers }
        if let timeout = try table.int("timeout", in: 1...3600) { thumbnails.timeout = timeout }
        if let prefill = try table.bool("prefill") { thumbnails.prefill = prefill }
        if let mebibytes = try table.int("cache_max_mib", in: 16...1_048_576) { thumbnails.cacheMaxBytes = Int64(mebibytes) << 20 }
        if let folder = try table.string("cache_folder") {
            let expanded = paths.expandingTilde(folder)
            guard expanded.hasPrefix("/") else { throw table.error("cache_folder", "must be an absolute path") }
            thumbnails.cacheFolder = expanded
        }
        if let worker = try table.string("worker") {
            let expanded = paths.expandingTilde(worker)
            guard expanded.hasPrefix("/") else { throw table.error("worker", "must be an absolute path") }
            thumbnails.worker = expanded
        }
        try table.rejectUnknownKeys()
    }

    /// The keys that bound each client; the owner's reserve must leave slots for everyone else.
    private static func readConnectionLimits(_ reader: inout TableReader, into config: inout DaemonConfig) throws(ConfigError) {
        var limits = config.connectionLimits
        if let perUID = try reader.int("max_connections_per_uid", in: 1...65_536) { limits.perUID = perUID }
        if let idle = try reader.int("idle_timeout", in: 1...86_400) { limits.idleTimeout = idle }
        if let unsent = try reader.int("max_unsent_bytes", in: 65_536...1 << 30) { limits.maxUnsentBytes = unsent }
        if let reserved = try reader.int("owner_reserved_connections", in: 0...65_535) {
            guard reserved < config.maxConnections else {
                throw reader.error("owner_reserved_connections", "\(reserved) leaves none of the "
                                   + "\(config.maxConnections) max_connections for apps; reserve fewer")
            }
            limits.ownerReserved = reserved
        } else {
            // The default reserve shrinks with a small max_connections rather than fail a file
            // that never mentioned it.
            limits.ownerReserved = min(limits.ownerReserved, config.maxConnections - 1)
        }
        config.connectionLimits = limits
    }

    /// `[library] ignore`: at most `IgnoreRules.maxPatterns` patterns, each one fnmatch takes as
    /// its writer meant (`IgnorePattern`). The list replaces the default one; `[]` ignores nothing.
    private static func ignoreRules(_ patterns: [String], in table: inout TableReader) throws(ConfigError) -> IgnoreRules {
        guard patterns.count <= IgnoreRules.maxPatterns else {
            throw table.error("ignore", "\(patterns.count) patterns are more than the \(IgnoreRules.maxPatterns) photod takes")
        }
        do throws(IgnorePatternError) {
            return try IgnoreRules(patterns)
        } catch {
            throw table.error("ignore", "pattern \"\(ShownText.of(error.pattern))\" \(error.reason)")
        }
    }

    /// `description_sources`: each of exif, xmp, iptc, sidecar at most once, at least one.
    private static func descriptionSources(
        _ names: [String], in table: inout TableReader
    ) throws(ConfigError) -> [Metadata.DescriptionSource] {
        let known = Metadata.DescriptionSource.allCases.map(\.rawValue).joined(separator: ", ")
        guard !names.isEmpty else { throw table.error("description_sources", "must name at least one of \(known)") }
        var sources: [Metadata.DescriptionSource] = []
        for name in names {
            guard let source = Metadata.DescriptionSource(rawValue: name) else {
                throw table.error("description_sources", "\"\(ShownText.of(name))\" is not one of \(known)")
            }
            guard !sources.contains(source) else {
                throw table.error("description_sources", "\"\(ShownText.of(name))\" is listed twice")
            }
            sources.append(source)
        }
        return sources
    }
}

/// Typed access to one TOML table that remembers which keys were used, so typos are caught.
struct TableReader {
    let table: TOMLTable
    let file: String
    let prefix: String
    var used: Set<String> = []

    init(table: TOMLTable, file: String, prefix: String) {
        self.table = table
        self.file = file
        self.prefix = prefix
    }

    func error(_ key: String, _ problem: String) -> ConfigError {
        // Keys come from the file: one may be a megabyte, or hold a newline.
        ConfigError(file: file, key: ShownText.of(prefix + key), problem: problem)
    }

    private mutating func value(_ key: String) -> TOMLValue? {
        used.insert(key)
        return table[key]
    }

    private func kind(_ value: TOMLValue) -> String { value.kind }

    mutating func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else { throw error(key, "expected a string, found \(kind(value))") }
        return string
    }

    mutating func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let bool = value.bool else { throw error(key, "expected true or false, found \(kind(value))") }
        return bool
    }

    /// The integer at `key`, refused outside `range`; nil when the table has no `key`.
    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.int else { throw error(key, "expected an integer, found \(kind(value))") }
        guard range.contains(number) else {
            throw error(key, "\(number) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
        return number
    }

    mutating func strings(_ key: String) throws(ConfigError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else { throw error(key, "expected an array of strings, found \(kind(value))") }
        var strings: [String] = []
        for element in array {
            guard let string = element.string else {
                throw error(key, "expected an array of strings, found an element of type \(kind(element))")
            }
            strings.append(string)
        }
        return strings
    }

    mutating func table(_ key: String) throws(ConfigError) -> TableReader? {
        guard let value = value(key) else { return nil }
        guard let table = value.table else { throw error(key, "expected a table [\(key)], found \(kind(value))") }
        return TableReader(table: table, file: file, prefix: prefix + key + ".")
    }

    /// Refuses a key no read asked for: a typo would otherwise be a setting silently ignored.
    /// Every key of the table is asked for on each load, so `used` holds them all.
    func rejectUnknownKeys() throws(ConfigError) {
        if let unknown = table.keys.sorted().first(where: { !used.contains($0) }) {
            let near = SelectionCatalog.closest(to: unknown, among: used.sorted()).prefix(3)
            let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\(prefix)\($0)\"" }.joined(separator: " or ") + "?"
            throw error(unknown, "unknown key\(hint) (see config/photod.toml for the keys photod reads)")
        }
    }
}
