import SQLite

/// The schema as a list of migrations; `PRAGMA user_version` records how many have run.
enum Schema {
    static let migrations: [String] = [
        // 1: assets, groups, and the change log.
        """
        CREATE TABLE assets (
            id TEXT NOT NULL UNIQUE,
            path BLOB NOT NULL UNIQUE,
            device INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            group_key TEXT NOT NULL,
            group_spelling TEXT NOT NULL,
            description TEXT,
            description_source TEXT,
            format TEXT NOT NULL,
            taken TEXT,
            taken_key INTEGER NOT NULL,
            width INTEGER,
            height INTEGER,
            orientation INTEGER,
            make TEXT,
            model TEXT
        );
        CREATE INDEX assets_by_group_taken ON assets(group_key, taken_key, id);
        CREATE INDEX assets_by_group_path ON assets(group_key, path);
        CREATE INDEX assets_by_group_modified ON assets(group_key, mtime_ns, id);
        CREATE INDEX assets_by_taken ON assets(taken_key, id);
        CREATE INDEX assets_by_modified ON assets(mtime_ns, id);
        CREATE TABLE groups (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            count INTEGER NOT NULL,
            latest_taken TEXT,
            latest_mtime_ns INTEGER
        ) WITHOUT ROWID;
        CREATE INDEX groups_by_name ON groups(name);
        CREATE TABLE group_spellings (
            group_key TEXT NOT NULL,
            spelling TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (group_key, spelling)
        ) WITHOUT ROWID;
        CREATE TABLE changes (
            token INTEGER PRIMARY KEY AUTOINCREMENT,
            committed_at_ns INTEGER NOT NULL,
            payload TEXT NOT NULL
        );
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // 2: find an asset by file identity, to keep its id when it moved unseen.
        """
        CREATE INDEX assets_by_identity ON assets(device, inode);
        """,
        // 3: who may see the library: one authorization record per app.
        """
        CREATE TABLE apps (
            id TEXT PRIMARY KEY,
            record BLOB NOT NULL
        ) WITHOUT ROWID;
        """,
        // 4: the XMP sidecar each asset was read with. Every asset starts "unknown" (-1), so the
        // next reconcile reads each file once more, now with every container and description source.
        """
        ALTER TABLE assets ADD COLUMN sidecar INTEGER NOT NULL DEFAULT 0;
        UPDATE assets SET sidecar = -1;
        """,
    ]

    /// Runs the migrations the database has not seen yet, each in its own transaction.
    static func migrate(_ db: SQLiteConnection) throws {
        let statement = try db.statement("PRAGMA user_version")
        let version = try statement.step() ? Int(statement.int64(0)) : 0
        statement.reset()
        guard version <= migrations.count else {
            throw StoreError.newerSchema(found: version, supported: migrations.count)
        }
        for (index, sql) in migrations.enumerated().dropFirst(version) {
            try db.transaction {
                try db.execute(sql)
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
