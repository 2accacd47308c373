import Foundation
import SQLite

/// One app's authorization record as stored: its id and the daemon's encoding of the rest.
public struct StoredApp: Sendable, Equatable {
    public var id: String
    /// The record, in a format only the daemon reads (JSON).
    public var record: Data

    /// Creates a stored app.
    public init(id: String, record: Data) {
        self.id = id
        self.record = record
    }
}

extension Store {
    /// Every stored app record, by id.
    public func apps() throws -> [StoredApp] {
        try read { db in
            let statement = try db.statement("SELECT id, record FROM apps ORDER BY id")
            var apps: [StoredApp] = []
            while try statement.step() {
                apps.append(StoredApp(id: statement.text(0) ?? "", record: Data(statement.blob(1))))
            }
            return apps
        }
    }

    /// Stores an app record, replacing the one with the same id; durable when this returns.
    public func saveApp(_ app: StoredApp) throws {
        try write { db in
            let statement = try db.statement(
                "INSERT INTO apps(id, record) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record")
            try statement.bind([.text(app.id), .blob(Array(app.record))]).run()
        }
    }
}
