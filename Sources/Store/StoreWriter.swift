#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import SQLite
import Synchronization

extension StoreDatabase {
    /// After a start on a full disk gave up the room beside the index (`SpaceReserve`), the
    /// index counts as full until that room can be taken back: the room was for opening the
    /// index, and writing into it would leave the next start on a full disk without it.
    func takeBackReserve() throws {
        guard reserveMissing.load(ordering: .relaxed) else { return }
        guard SpaceReserve.ensure(for: path) else {
            throw SQLiteError(code: 13, message: "the disk is full")
        }
        reserveMissing.store(false, ordering: .relaxed)
    }

    /// Commits `batch` in one transaction and records it in the change log; nil when nothing changed.
    public func apply(_ batch: WriteBatch) throws -> CommittedChange? {
        guard !batch.isEmpty else { return nil }
        try takeBackReserve()
        return try write { db in
            // The log's size is counted once per open and then kept up to date, so pruning by
            // bytes costs nothing until there is something to prune.
            let loggedBytes = try changeLogBytes.withLock { $0 } ?? ChangeLog.totalBytes(db)
            let outcome: (change: CommittedChange, logBytes: Int64, pruned: Int)?
            do {
                outcome = try db.transaction {
                    var writer = BatchWriter(db: db, limits: changeLogLimits, searchTextAbove: try BulkLoad.searchTextAbove(db))
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
    var rows: AssetRowWriter
    var change = CommittedChange(token: 0)
    var ids = AssetID.Source()
    /// Net change in asset count per group key, and per (group key, spelling).
    var groupDeltas: [String: Int] = [:]
    var spellingDeltas: [SpellingKey: Int] = [:]

    struct SpellingKey: Hashable {
        var key: String
        var spelling: String
    }

    let limits: ChangeLogLimits

    init(db: SQLiteConnection, limits: ChangeLogLimits, searchTextAbove: Int64) {
        self.db = db
        self.limits = limits
        rows = AssetRowWriter(db: db, searchTextAbove: searchTextAbove)
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
                try rows.park(number: existing.number, id: update.id)
            }
            pending.append((update, existing))
        }
        for (update, existing) in pending {
            try applyUpdate(update, existing: existing)
        }
        // After the updates: a move in this batch takes its asset away from the vanished path.
        for gone in batch.vanished {
            guard let existing = try existing(id: gone.id), existing.path == gone.path else { continue }
            try remove(gone.id, existing: existing)
        }
        for insert in batch.inserts {
            try self.insert(insert)
        }
    }

    private mutating func remove(id: String) throws {
        guard let existing = try existing(id: id) else { return }
        try remove(id, existing: existing)
    }

    private mutating func remove(_ id: String, existing: Existing) throws {
        try rows.delete(number: existing.number, old: existing)
        count(existing.content.groupKey, existing.content.groupSpelling, by: -1)
        change.removed.append(id)
        change.removedPaths.append(existing.path)
    }

    /// The id of the asset at `path`, if any.
    private func holder(of path: PathBytes) throws -> String? {
        guard let (folder, _, name) = try PathStems.find(db, path.bytes) else { return nil }
        let statement = try db.statement("SELECT id FROM assets WHERE folder = ? AND name = ?")
        defer { statement.reset() }
        try statement.bind([.integer(folder), .blob(name)])
        return try statement.step() ? AssetEncoding.idText(statement, 0) : nil
    }

    /// Removes whatever other asset holds `path`, so the caller can take the path.
    private mutating func evictPath(_ path: PathBytes, keeping id: String?) throws {
        guard let holder = try holder(of: path), holder != id else { return }
        try remove(id: holder)
    }

    private mutating func applyUpdate(_ update: WriteBatch.Update, existing: Existing) throws {
        try evictPath(update.path, keeping: update.id)
        let content = update.content ?? existing.content
        try rows.update(number: existing.number, id: update.id, old: existing, path: update.path, stamp: update.stamp,
                        content: content)
        if existing.content.groupKey != content.groupKey || existing.content.groupSpelling != content.groupSpelling {
            count(existing.content.groupKey, existing.content.groupSpelling, by: -1)
            count(content.groupKey, content.groupSpelling, by: 1)
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
        var id = ids.next()
        var attempts = 1
        // The unique indexes catch the rare conflict, so the common insert costs no lookup.
        while try rows.insert(id: .blob(id.bytes), path: insert.path, stamp: insert.stamp, content: insert.content) == nil {
            guard attempts < 8 else { throw SQLiteError(code: 19, message: "cannot draw an unused asset id") }
            attempts += 1
            if try holder(of: insert.path) != nil {
                // Another asset still holds the path (its file was replaced): this one takes over.
                try evictPath(insert.path, keeping: nil)
            } else {
                id = ids.next()
            }
        }
        count(insert.content.groupKey, insert.content.groupSpelling, by: 1)
        change.inserted.append(id.text)
    }

    private mutating func count(_ key: String, _ spelling: String, by delta: Int) {
        groupDeltas[key, default: 0] += delta
        spellingDeltas[SpellingKey(key: key, spelling: spelling), default: 0] += delta
    }

    private func existing(id: String) throws -> Existing? {
        let statement = try db.statement("""
            SELECT a.number, a.folder, a.name, f.path AS folder_path, a.group_id, \(AssetRowDecoder.stampColumns),
              \(AssetRowDecoder.contentColumns)
            FROM assets a \(AssetRowDecoder.joins) WHERE a.id = ?
            """)
        defer { statement.reset() }
        try statement.bind([AssetEncoding.id(id)])
        let columns = (number: try statement.column(named: "number"), folder: try statement.column(named: "folder"),
                       name: try statement.column(named: "name"), stem: try statement.column(named: "folder_path"),
                       group: try statement.column(named: "group_id"))
        let (stampColumns, contentColumns) = (try StampColumns(statement), try ContentColumns(statement))
        guard try statement.step() else { return nil }
        let name = statement.blob(columns.name)
        return Existing(number: statement.int64(columns.number), path: PathBytes(statement.blob(columns.stem) + name),
                        folder: statement.int64(columns.folder), name: name, group: statement.int64(columns.group),
                        stamp: stampColumns.decode(statement), content: contentColumns.decode(statement))
    }

    /// Brings the groups tables up to date, writes the change-log row and prunes the log to its
    /// limits; nil when nothing changed. `loggedBytes` is the log's size before this change.
    mutating func commitChange(loggedBytes: Int64) throws -> (change: CommittedChange, logBytes: Int64, pruned: Int)? {
        rows.forgetGroups()
        for (spelling, delta) in spellingDeltas where delta != 0 {
            try db.statement("""
                INSERT INTO group_spellings(group_key, spelling, count) VALUES (?, ?, ?)
                ON CONFLICT(group_key, spelling) DO UPDATE SET count = count + excluded.count
                """).bind([.text(spelling.key), .text(spelling.spelling), .integer(Int64(delta))]).run()
        }
        try db.execute("DELETE FROM group_spellings WHERE count <= 0")
        for key in groupDeltas.keys.sorted() {
            try refreshGroup(key, delta: groupDeltas[key] ?? 0)
        }
        // Groups made for an insert that a constraint then refused were never counted.
        try db.execute("DELETE FROM groups WHERE count <= 0")
        try rows.refreshLatest()
        guard !change.isEmpty else { return nil }
        let payload = try ChangePayload.encode(change)
        change.token = try ChangeLog.append(db, payload: payload, committedAtNs: Int64(Date().timeIntervalSince1970 * 1e9))
        let (logBytes, pruned) = try ChangeLog.prune(
            db, newest: change.token, total: loggedBytes + Int64(payload.count), limits: limits)
        return (change, logBytes, pruned)
    }

    private mutating func refreshGroup(_ key: String, delta: Int) throws {
        let old = try db.statement("SELECT name, count FROM groups WHERE key = ?")
        try old.bind([.text(key)])
        // A group with no assets yet was added by this batch's first insert into it.
        let found = try old.step() && old.int64(1) > 0
        let oldName = found ? old.text(0) : nil
        let oldCount = found ? Int(old.int64(1)) : 0
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
        try db.statement("""
            INSERT INTO groups(key, name, count) VALUES (?, ?, ?)
            ON CONFLICT(key) DO UPDATE SET name = excluded.name, count = excluded.count
            """).bind([.text(key), .text(name), .integer(Int64(newCount))]).run()
        if delta != 0 || oldName != name {
            if let oldName, oldName != name { change.groupsRemoved.append(oldName) }
            change.groupsChanged.append(name)
            if isFallback { change.fallbackChanged = true }
        }
    }
}
