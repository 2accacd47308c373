#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLite

extension StoreDatabase {
    /// Commits `batch` in one transaction and records it in the change log; nil when nothing changed.
    func apply(_ batch: WriteBatch) throws -> CommittedChange? {
        guard !batch.isEmpty else { return nil }
        return try write { db in
            // The log's size is counted once per open and then kept up to date, so pruning by
            // bytes costs nothing until there is something to prune.
            let loggedBytes = try changeLogBytes.withLock { $0 } ?? ChangeLog.totalBytes(db)
            let outcome: (change: CommittedChange, logBytes: Int64, pruned: Int)?
            do {
                outcome = try db.transaction {
                    var writer = BatchWriter(db: db, limits: changeLogLimits)
                    try writer.apply(batch)
                    return try writer.commitChange(loggedBytes: loggedBytes)
                }
            } catch {
                changeLogBytes.withLock { $0 = nil }
                throw error
            }
            guard let outcome else { return nil }
            changeLogBytes.withLock { $0 = outcome.logBytes }
            if outcome.pruned > 0 { ChangeLog.returnFreePages(db) }
            onCommit(outcome.change)
            return outcome.change
        }
    }
}

/// Carries out one batch inside an open transaction, collecting what changed.
private struct BatchWriter {
    let db: SQLiteConnection
    var change = CommittedChange(token: 0)
    /// Net change in asset count per group key, and per (group key, spelling).
    var groupDeltas: [String: Int] = [:]
    var spellingDeltas: [SpellingKey: Int] = [:]
    /// Keys whose newest asset may have changed.
    var touchedGroups: Set<String> = []

    struct SpellingKey: Hashable {
        var key: String
        var spelling: String
    }

    private struct Existing {
        /// The row's rowid: the key of its text in the search index.
        var rowid: Int64
        var path: [UInt8]
        var stamp: FileStamp
        var groupKey: String
        var groupSpelling: String
        var content: AssetContent
    }

    let limits: ChangeLogLimits

    init(db: SQLiteConnection, limits: ChangeLogLimits) {
        self.db = db
        self.limits = limits
    }

    mutating func apply(_ batch: WriteBatch) throws {
        for id in batch.removals {
            try remove(id: id)
        }
        var pending: [(WriteBatch.Update, Existing)] = []
        for update in batch.updates {
            guard let existing = try existing(id: update.id) else {
                // Removed meanwhile (for example by a concurrent rescan): the file is new again.
                if let content = update.content {
                    try insert(WriteBatch.Insert(path: update.path, stamp: update.stamp, content: content))
                }
                continue
            }
            if existing.path != update.path {
                // Park the old path so a swap or rotation of names inside one batch cannot collide.
                try db.statement("UPDATE assets SET path = ? WHERE id = ?")
                    .bind([.blob([0] + Array(update.id.utf8)), .text(update.id)]).run()
            }
            pending.append((update, existing))
        }
        for (update, existing) in pending {
            try applyUpdate(update, existing: existing)
        }
        for insert in batch.inserts {
            try self.insert(insert)
        }
    }

    private mutating func remove(id: String) throws {
        guard let existing = try existing(id: id) else { return }
        try db.statement("DELETE FROM assets WHERE id = ?").bind([.text(id)]).run()
        try SearchIndex.remove(db, rowid: existing.rowid)
        count(existing.groupKey, existing.groupSpelling, by: -1)
        change.removed.append(id)
        change.removedPaths.append(existing.path)
    }

    /// The id of the asset at `path`, if any.
    private func holder(of path: [UInt8]) throws -> String? {
        let statement = try db.statement("SELECT id FROM assets WHERE path = ?")
        try statement.bind([.blob(path)])
        let id = try statement.step() ? statement.text(0) : nil
        statement.reset()
        return id
    }

    /// Removes whatever other asset holds `path`, so the caller can take the path.
    private mutating func evictPath(_ path: [UInt8], keeping id: String?) throws {
        guard let holder = try holder(of: path), holder != id else { return }
        try remove(id: holder)
    }

    private mutating func applyUpdate(_ update: WriteBatch.Update, existing: Existing) throws {
        try evictPath(update.path, keeping: update.id)
        let content = update.content ?? existing.content
        try db.statement("""
            UPDATE assets SET path = ?, device = ?, inode = ?, size = ?, mtime_ns = ?, sidecar = ?, group_key = ?,
              group_spelling = ?, description = ?, description_source = ?, format = ?, taken = ?, taken_key = ?,
              width = ?, height = ?, orientation = ?, make = ?, model = ?, sidecar_candidate = ?
            WHERE id = ?
            """).bind(Self.row(path: update.path, stamp: update.stamp, content: content) + [.text(update.id)]).run()
        if SearchIndex.textChanges(from: (existing.path, existing.content), to: (update.path, content)) {
            try SearchIndex.write(db, rowid: existing.rowid, path: update.path, content: content)
        }
        if existing.groupKey != content.groupKey || existing.groupSpelling != content.groupSpelling {
            count(existing.groupKey, existing.groupSpelling, by: -1)
            count(content.groupKey, content.groupSpelling, by: 1)
        } else {
            touchedGroups.insert(content.groupKey)
        }
        if existing.path != update.path {
            change.moved.append(MovedAsset(id: update.id, from: existing.path, to: update.path))
        }
        let fileChanged = !update.stamp.hasSameBytes(as: existing.stamp)
        if fileChanged || content != existing.content {
            change.updated.append(update.id)
        }
    }

    private mutating func insert(_ insert: WriteBatch.Insert) throws {
        let statement = try db.statement("""
            INSERT INTO assets (path, device, inode, size, mtime_ns, sidecar, group_key, group_spelling, description,
              description_source, format, taken, taken_key, width, height, orientation, make, model, sidecar_candidate,
              id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let values = Self.row(path: insert.path, stamp: insert.stamp, content: insert.content)
        var id = AssetID.generate()
        var attempts = 1
        // The UNIQUE constraints catch the rare conflict, so the common insert costs no lookup.
        while try !Self.run(statement, values + [.text(id)]) {
            guard attempts < 8 else { throw SQLiteError(code: 19, message: "cannot draw an unused asset id") }
            attempts += 1
            if try holder(of: insert.path) != nil {
                // Another asset still holds the path (its file was replaced): this one takes over.
                try evictPath(insert.path, keeping: nil)
            } else {
                id = AssetID.generate()
            }
        }
        try SearchIndex.write(db, rowid: db.lastInsertRowID, path: insert.path, content: insert.content)
        count(insert.content.groupKey, insert.content.groupSpelling, by: 1)
        change.inserted.append(id)
    }

    /// Runs an insert; false when it hit a constraint (the caller retries with another id).
    private static func run(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws -> Bool {
        do {
            try statement.bind(values).run()
            return true
        } catch {
            guard error.isConstraintViolation else { throw error }
            statement.reset()
            return false
        }
    }

    private mutating func count(_ key: String, _ spelling: String, by delta: Int) {
        groupDeltas[key, default: 0] += delta
        spellingDeltas[SpellingKey(key: key, spelling: spelling), default: 0] += delta
        touchedGroups.insert(key)
    }

    private func existing(id: String) throws -> Existing? {
        let statement = try db.statement("""
            SELECT rowid, path, \(AssetRowDecoder.stampColumns), \(AssetRowDecoder.contentColumns) FROM assets WHERE id = ?
            """)
        try statement.bind([.text(id)])
        let (rowid, path) = (try statement.column(named: "rowid"), try statement.column(named: "path"))
        let (stampColumns, contentColumns) = (try StampColumns(statement), try ContentColumns(statement))
        guard try statement.step() else { return nil }
        let stamp = stampColumns.decode(statement)
        let content = contentColumns.decode(statement)
        let result = Existing(rowid: statement.int64(rowid), path: statement.blob(path), stamp: stamp, groupKey: content.groupKey,
                              groupSpelling: content.groupSpelling, content: content)
        statement.reset()
        return result
    }

    static func row(path: [UInt8], stamp: FileStamp, content: AssetContent) -> [SQLiteValue] {
        [
            .blob(path), .integer(Int64(bitPattern: stamp.device)), .integer(Int64(bitPattern: stamp.inode)),
            .integer(stamp.size), .integer(stamp.mtimeNs), .integer(stamp.sidecar), .text(content.groupKey), .text(content.groupSpelling),
            .text(content.description), .text(content.descriptionSource), .text(content.format), .text(content.taken),
            .integer(content.takenNs ?? stamp.mtimeNs), .integer(content.width), .integer(content.height),
            .integer(content.orientation), .text(content.make), .text(content.model), .integer(content.sidecarCandidate),
        ]
    }

    /// Brings the groups tables up to date, writes the change-log row and prunes the log to its
    /// limits; nil when nothing changed. `loggedBytes` is the log's size before this change.
    mutating func commitChange(loggedBytes: Int64) throws -> (change: CommittedChange, logBytes: Int64, pruned: Int)? {
        for (spelling, delta) in spellingDeltas where delta != 0 {
            try db.statement("""
                INSERT INTO group_spellings(group_key, spelling, count) VALUES (?, ?, ?)
                ON CONFLICT(group_key, spelling) DO UPDATE SET count = count + excluded.count
                """).bind([.text(spelling.key), .text(spelling.spelling), .integer(Int64(delta))]).run()
        }
        try db.execute("DELETE FROM group_spellings WHERE count <= 0")
        for key in touchedGroups.sorted() {
            try refreshGroup(key, delta: groupDeltas[key] ?? 0)
        }
        guard !change.isEmpty else { return nil }
        let payload = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        change.token = try ChangeLog.append(db, payload: payload, committedAtNs: Int64(Date().timeIntervalSince1970 * 1e9))
        let (logBytes, pruned) = try ChangeLog.prune(
            db, newest: change.token, total: loggedBytes + Int64(payload.utf8.count), limits: limits)
        return (change, logBytes, pruned)
    }

    private mutating func refreshGroup(_ key: String, delta: Int) throws {
        let old = try db.statement("SELECT name, count FROM groups WHERE key = ?")
        try old.bind([.text(key)])
        let oldName = try old.step() ? old.text(0) : nil
        let oldCount = oldName == nil ? 0 : Int(old.int64(1))
        old.reset()
        let newCount = oldCount + delta
        // The keys come sorted and the fallback's is the empty text, so the fallback group is
        // the first name of either list (`CommittedChange.fallbackChanged`).
        let isFallback = key == StoredGroup.fallbackKey
        if newCount <= 0 {
            try db.statement("DELETE FROM groups WHERE key = ?").bind([.text(key)]).run()
            if let oldName {
                change.groupsRemoved.append(oldName)
                if isFallback { change.fallbackRemoved = true }
            }
            return
        }
        let spelling = try db.statement(
            "SELECT spelling FROM group_spellings WHERE group_key = ? ORDER BY count DESC, spelling LIMIT 1")
        try spelling.bind([.text(key)])
        let name = try spelling.step() ? spelling.text(0) ?? key : key
        spelling.reset()
        let newest = try db.statement(
            "SELECT taken, mtime_ns FROM assets WHERE group_key = ? ORDER BY taken_key DESC, id DESC LIMIT 1")
        try newest.bind([.text(key)])
        let hasNewest = try newest.step()
        let latestTaken = hasNewest ? newest.text(0) : nil
        let latestMtime = hasNewest ? newest.int64(1) : nil
        newest.reset()
        try db.statement("""
            INSERT INTO groups(key, name, count, latest_taken, latest_mtime_ns) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(key) DO UPDATE SET name = excluded.name, count = excluded.count,
              latest_taken = excluded.latest_taken, latest_mtime_ns = excluded.latest_mtime_ns
            """).bind([.text(key), .text(name), .integer(Int64(newCount)), .text(latestTaken),
                       latestMtime.map { .integer($0) } ?? .null]).run()
        if delta != 0 || oldName != name {
            if let oldName, oldName != name { change.groupsRemoved.append(oldName) }
            change.groupsChanged.append(name)
            if isFallback { change.fallbackChanged = true }
        }
    }
}
