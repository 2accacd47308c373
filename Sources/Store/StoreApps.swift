#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLite

/// One app's authorization record as stored: the user and app id it belongs to, and the
/// daemon's encoding of the rest.
public struct StoredApp: Sendable, Equatable {
    /// The uid of the processes the record is about; the same app id run by two users is two apps.
    public var uid: UInt32
    public var id: String
    /// The record, in a format only the daemon reads (JSON).
    public var record: Data

    /// Creates a stored app.
    public init(uid: UInt32, id: String, record: Data) {
        self.uid = uid
        self.id = id
        self.record = record
    }
}

extension StoreDatabase {
    /// Every stored app record, by uid and id.
    public func apps() throws -> [StoredApp] {
        try read { db in
            let statement = try db.statement("SELECT uid, id, record FROM apps ORDER BY uid, id")
            let (uidColumn, idColumn, recordColumn) = (try statement.column(named: "uid"), try statement.column(named: "id"),
                                                       try statement.column(named: "record"))
            var apps: [StoredApp] = []
            while try statement.step() {
                guard let uid = UInt32(exactly: statement.int64(uidColumn)) else { continue }
                apps.append(StoredApp(uid: uid, id: statement.text(idColumn) ?? "", record: Data(statement.blob(recordColumn))))
            }
            return apps
        }
    }

    /// Stores an app record, replacing the one with the same uid and id; durable when this
    /// returns. `backUp`: the change is one the backup must hold (a decision), so it is
    /// rewritten; a request coming and going is not, and costs the backup nothing.
    public func saveApp(_ app: StoredApp, backUp: Bool = true) throws {
        try write { db in
            let statement = try db.statement("""
                INSERT INTO apps(uid, id, record) VALUES (?, ?, ?)
                ON CONFLICT(uid, id) DO UPDATE SET record = excluded.record
                """)
            try statement.bind([.integer(Int64(app.uid)), .text(app.id), .blob(Array(app.record))]).run()
            if backUp { backUpApps(db) }
        }
    }

    /// Deletes an app record; true when there was one.
    @discardableResult
    public func deleteApp(uid: UInt32, id: String) throws -> Bool {
        try write { db in
            let statement = try db.statement("DELETE FROM apps WHERE uid = ? AND id = ?")
            try statement.bind([.integer(Int64(uid)), .text(id)]).run()
            let deleted = db.changes > 0
            if deleted { backUpApps(db) }
            return deleted
        }
    }
}

extension Store {
    /// Queues an app record's save and returns at once (see `enqueueWrite`); `completion` hears
    /// whether it is durable. `backUp` false leaves the apps backup as it is, for changes that
    /// are no decision (a request pending or withdrawn): an app asking in a loop would otherwise
    /// have the whole backup rewritten and fsync-ed each time.
    public func enqueueSaveApp(_ app: StoredApp, backUp: Bool = true,
                               completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        enqueueWrite({ try $0.saveApp(app, backUp: backUp) }, completion: completion)
    }

    /// Queues an app record's deletion and returns at once; `completion` hears the outcome.
    public func enqueueDeleteApp(uid: UInt32, id: String,
                                 completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        enqueueWrite({ _ = try $0.deleteApp(uid: uid, id: id) }, completion: completion)
    }
}
