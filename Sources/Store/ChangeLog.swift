import SQLite

/// How much of the change log is kept for `Subscribe(since:)`: the newest `changes` changes and
/// at most `bytes` of stored payload, whichever limit is reached first. A count alone is not a
/// bound: one rename of a large folder is a change listing every photo in it.
public struct ChangeLogLimits: Sendable, Equatable {
    /// Most changes kept.
    public var changes: Int
    /// Most bytes of change payload kept; the newest change is kept even when it alone is larger.
    public var bytes: Int

    /// 10,000 changes or 8 MiB, whichever comes first.
    public static let standard = ChangeLogLimits(changes: 10_000, bytes: 8 << 20)

    /// Limits of at least one change and one byte.
    public init(changes: Int, bytes: Int) {
        self.changes = max(1, changes)
        self.bytes = max(1, bytes)
    }
}

/// The change log's size accounting and pruning, run on the writer connection inside the
/// transaction that appends a change, so the log and its limits never disagree after a crash.
enum ChangeLog {
    /// Payload bytes the log holds now. Read through the (token, size) index: the size column
    /// sits after the payload, and reading it from the table would read every payload too.
    static func totalBytes(_ db: SQLiteConnection) throws -> Int64 {
        try db.integer("SELECT coalesce(sum(size), 0) FROM changes INDEXED BY changes_by_size") ?? 0
    }

    /// Appends `payload` (`ChangePayload`) and returns its token.
    static func append(_ db: SQLiteConnection, payload: [UInt8], committedAtNs: Int64) throws -> Int64 {
        try db.statement("INSERT INTO changes(committed_at_ns, payload, size) VALUES (?, ?, ?)")
            .bind([.integer(committedAtNs), .blob(payload), .integer(Int64(payload.count))]).run()
        return db.lastInsertRowID
    }

    /// Drops the oldest changes until the log is within `limits`, never the newest (`newest`).
    /// `total` is the log's size including the newest; returns the size left and how many went.
    static func prune(_ db: SQLiteConnection, newest: Int64, total: Int64,
                      limits: ChangeLogLimits) throws -> (total: Int64, pruned: Int) {
        let countCut = newest - Int64(limits.changes)
        var remaining = total
        var cut: Int64?
        var pruned = 0
        let oldest = try db.statement(
            "SELECT token, size FROM changes INDEXED BY changes_by_size WHERE token < ? ORDER BY token")
        try oldest.bind([.integer(newest)])
        while try oldest.step() {
            let token = oldest.int64(0)
            guard token <= countCut || remaining > Int64(limits.bytes) else { break }
            remaining -= oldest.int64(1)
            cut = token
            pruned += 1
        }
        oldest.reset()
        if let cut {
            try db.statement("DELETE FROM changes WHERE token <= ?").bind([.integer(cut)]).run()
        }
        return (remaining, pruned)
    }

    /// Free pages worth returning to the file system at once: 1 MiB of 4 KiB pages. Fewer are
    /// left for the next changes to reuse, so a log pruning one small change per commit does
    /// not move pages around on every write.
    static let vacuumThreshold: Int64 = 256

    /// Gives the free pages back to the file system when there are enough of them. The file
    /// shrinks at the next checkpoint, which is attempted at once without waiting for readers.
    /// A failure here leaves the pages free for reuse, so it is not an error of the write.
    static func returnFreePages(_ db: SQLiteConnection) {
        guard let free = try? db.integer("PRAGMA freelist_count"), free >= vacuumThreshold else { return }
        try? db.execute("PRAGMA incremental_vacuum")
        try? db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }
}
