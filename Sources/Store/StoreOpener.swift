#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import SQLite
import SystemPackage

/// What opening the index had to do beyond opening it.
public struct OpeningReport: Sendable, Equatable {
    /// Where a damaged index was moved; nil when it was fine.
    public var brokenPath: String?
    /// Why the damaged index could not be used.
    public var brokenReason: String?
    /// App records restored from the backup into a fresh index.
    public var appsRestored = 0
    /// Why the backup could not be restored, when there was one and it could not be.
    public var backupProblem: String?
    /// True when this open converted an existing index to give free space back (a one-time VACUUM).
    public var convertedToIncrementalVacuum = false
    /// Why opening gave up the room kept beside the index (`SpaceReserve`): the disk was full.
    public var reserveReleased: String?
}

/// Opens the index: moves an empty or unreadable file aside instead of replacing it, configures
/// and migrates the database, and restores or refreshes the app-records backup.
struct StoreOpener {
    let path: String

    /// The writer connection and what was done to get it.
    struct Opened {
        var writer: SQLiteConnection
        var report: OpeningReport
        /// The writer's page limit as SQLite set it (its compiled-in maximum).
        var unlimitedPages: Int64
    }

    /// Most bytes the WAL file keeps after a checkpoint: a large batch may grow it, and this is
    /// what it shrinks back to, so the index gives the space back.
    static let walSizeLimit = 4 << 20

    func open() throws -> sending Opened {
        var report = OpeningReport()
        let existed = FileManager.default.fileExists(atPath: path)
        try StoreDatabase.prepareFile(at: path)
        // SQLite would take an empty file for a new database, and every permission decision
        // would be lost without a word: an index photod made is never empty.
        if existed, DurableFile.size(of: path) == 0 {
            try moveAside(because: "it is empty (0 bytes)", into: &report)
        }
        var writer: SQLiteConnection
        var compacted: Bool
        do {
            (writer, compacted) = try configuredWriter()
        } catch let error as SQLiteError where error.isDamagedDatabase {
            try moveAside(because: "SQLite cannot read it (\(error.message))", into: &report)
            (writer, compacted) = try configuredWriter()
        } catch let error as SQLiteError where error.isOutOfSpace && SpaceReserve.release(for: path) {
            // A full disk: even reading needs the room of the -shm file. The reserve gives it,
            // and photod serves the index as it is (writes fail as on any full disk).
            report.reserveReleased = "the disk was full (\(error.message)); photod gave up its reserve beside the index to open it"
            (writer, compacted) = try configuredWriter()
        }
        // Made at every start with room, so that the next start on a full disk has it to give up.
        if report.reserveReleased == nil { SpaceReserve.ensure(for: path) }
        report.convertedToIncrementalVacuum = Schema.convertToIncrementalVacuum(writer)
        if compacted, !report.convertedToIncrementalVacuum {
            // The compact layout leaves about two thirds of the old file free: one VACUUM gives
            // it back and lays the new tables out in order (the rowids the search index is keyed
            // by are kept: `assets.number`). On a full disk the pages are given back bit by bit.
            do { try writer.execute("VACUUM") } catch { try? writer.execute("PRAGMA incremental_vacuum") }
        }
        // A bulk load that a crash interrupted is finished before anything reads the index; one
        // that cannot be (a full disk) leaves the mark, every query still answers, and the next
        // open tries again.
        _ = try? BulkLoad.finish(writer)
        _ = try? SearchIndex.rebuildIfNeeded(writer)
        let backup = AppsBackup.path(for: path)
        if !existed || report.brokenPath != nil, FileManager.default.fileExists(atPath: backup) {
            do {
                report.appsRestored = try AppsBackup.restore(writer, index: path)
            } catch {
                report.backupProblem = "\(error)"
            }
        } else {
            // The index is the truth: an index from before the backup existed gains one, and a
            // backup a failed write left behind is brought up to date.
            try? AppsBackup.write(writer, index: path)
        }
        let unlimitedPages = try writer.integer("PRAGMA max_page_count") ?? 1_073_741_823
        return Opened(writer: writer, report: report, unlimitedPages: unlimitedPages)
    }

    /// The writer, and whether migrating it converted it to the compact layout.
    private func configuredWriter() throws -> (SQLiteConnection, Bool) {
        let writer = try SQLiteConnection(path: path, create: true)
        // Only takes effect in a new database, before its first table: existing ones are
        // converted once by `Schema.convertToIncrementalVacuum`.
        try writer.execute("PRAGMA auto_vacuum = INCREMENTAL")
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA journal_size_limit = \(Self.walSizeLimit)")
        try writer.execute("PRAGMA synchronous = NORMAL")
        try writer.execute("PRAGMA temp_store = MEMORY")
        try writer.execute("PRAGMA cache_size = -\(StoreDatabase.writerCacheKiB)")
        let compacted = try Schema.migrate(writer)
        return (writer, compacted)
    }

    /// Renames the index (and its -wal and -shm, which belong to it and would otherwise be
    /// replayed into the new file) to `index.sqlite.broken-<UTC time>`, then prepares a new file.
    private func moveAside(because reason: String, into report: inout OpeningReport) throws {
        // yyyyMMdd'T'HHmmss'Z', in UTC.
        let stamp = Date().formatted(.iso8601.dateSeparator(.omitted).timeSeparator(.omitted))
        var broken = path + ".broken-" + stamp
        var attempt = 1
        while FileManager.default.fileExists(atPath: broken) || FileManager.default.fileExists(atPath: broken + "-wal") {
            attempt += 1
            broken = path + ".broken-" + stamp + "-\(attempt)"
        }
        guard rename(path, broken) == 0 else {
            throw StoreError.cannotPrepare(
                path: path, reason: "\(reason), and it cannot be moved to \(broken): \(Errno(rawValue: errno))")
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, broken + suffix) == 0 else {
                throw StoreError.cannotPrepare(
                    path: path, reason: "cannot move \(path + suffix) to \(broken + suffix): \(Errno(rawValue: errno))")
            }
        }
        DurableFile.syncFolder(of: path)
        report.brokenPath = broken
        report.brokenReason = reason
        try StoreDatabase.prepareFile(at: path)
    }
}
