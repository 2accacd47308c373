#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLite

/// A copy of the `apps` table — the owner's permission decisions, the one thing in the index
/// that cannot be rebuilt from the photos — kept beside the index (`index.sqlite.apps.json`),
/// so that a damaged index can be replaced without losing them.
///
/// Rows are copied column by column with their SQLite types, so a column added to `apps` by a
/// later migration is backed up and restored without this code knowing about it.
enum AppsBackup {
    /// The backup's file name: the index's name plus `.apps.json`.
    static func path(for index: String) -> String { index + ".apps.json" }

    /// The backup file is photod's own, but it is read before anything else checks it: cap it.
    static let maxBytes = 64 << 20

    private static let format = "photod apps backup"

    private struct File: Codable {
        var format: String
        var version: Int
        var rows: [[String: Value]]
    }

    /// One column value with its SQLite type.
    private enum Value: Codable {
        case null
        case integer(Int64)
        case text(String)
        case blob(Data)

        init(_ value: SQLiteValue) {
            switch value {
            case .null: self = .null
            case .integer(let number): self = .integer(number)
            case .text(let string): self = .text(string)
            case .blob(let bytes): self = .blob(Data(bytes))
            }
        }

        var sqlite: SQLiteValue {
            switch self {
            case .null: return .null
            case .integer(let number): return .integer(number)
            case .text(let string): return .text(string)
            case .blob(let data): return .blob(Array(data))
            }
        }
    }

    /// Writes every app record to the backup atomically: a temporary file, fsync, rename, and
    /// an fsync of the folder, so a crash leaves the old backup or the new one, never half of one.
    static func write(_ db: SQLiteConnection, index: String) throws {
        let statement = try db.statement("SELECT * FROM apps ORDER BY id")
        defer { statement.reset() }
        var rows: [[String: Value]] = []
        while try statement.step() {
            var row: [String: Value] = [:]
            for column in 0..<statement.columnCount {
                row[statement.columnName(column)] = Value(statement.value(column))
            }
            rows.append(row)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(File(format: format, version: 1, rows: rows))
        // Each start brings the backup up to date; when it already is, skip the three fsyncs,
        // which cost a restart over an unchanged library more than the whole walk's parsing.
        if current(path(for: index), equals: data) { return }
        try DurableFile.replace(path(for: index), with: data)
    }

    /// Whether the file at `path` holds exactly `data` (a missing or larger file does not).
    private static func current(_ path: String, equals data: Data) -> Bool {
        guard DurableFile.size(of: path) == data.count,
              let existing = FileManager.default.contents(atPath: path) else { return false }
        return existing == data
    }

    /// Inserts the backed-up app records into a fresh index; returns how many. Columns the
    /// index does not have are skipped, and a record already present is left as it is.
    static func restore(_ db: SQLiteConnection, index: String) throws -> Int {
        let file = try read(path(for: index))
        let columns = try appColumns(db)
        var restored = 0
        try db.transaction {
            for row in file.rows {
                let names = row.keys.filter(columns.contains).sorted()
                guard names.contains("id") else { continue }
                let list = names.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
                    .joined(separator: ", ")
                let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                try db.statement("INSERT OR IGNORE INTO apps(\(list)) VALUES (\(marks))")
                    .bind(names.compactMap { row[$0]?.sqlite }).run()
                restored += db.changes
            }
        }
        return restored
    }

    private static func read(_ path: String) throws -> File {
        let size = DurableFile.size(of: path) ?? 0
        guard size <= maxBytes else {
            throw StoreError.badBackup(path: path, reason: "it is \(size) bytes, more than the \(maxBytes) a backup may be")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw StoreError.badBackup(path: path, reason: "it is not a photod apps backup (\(error))")
        }
        guard file.format == format, file.version == 1 else {
            throw StoreError.badBackup(path: path, reason: "unknown format \(file.format) version \(file.version)")
        }
        return file
    }

    /// The apps table's column names (schema names, not the backup's, go into the SQL).
    private static func appColumns(_ db: SQLiteConnection) throws -> Set<String> {
        let statement = try db.statement("SELECT name FROM pragma_table_info('apps')")
        defer { statement.reset() }
        var names: Set<String> = []
        while try statement.step() {
            if let name = statement.text(0) { names.insert(name) }
        }
        return names
    }
}
