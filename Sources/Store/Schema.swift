#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
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
        // 5: app records keyed by (uid, app id): in a system service, the same app run by two
        // users is two apps, and one user's grant never reaches another. Records made before
        // this were keyed by app id alone and are the daemon's own user's (the one that migrates);
        // the column's default gives rows restored from an older backup the same owner.
        """
        CREATE TABLE apps_by_user (
            uid INTEGER NOT NULL DEFAULT \(getuid()),
            id TEXT NOT NULL,
            record BLOB NOT NULL,
            PRIMARY KEY (uid, id)
        ) WITHOUT ROWID;
        INSERT INTO apps_by_user(uid, id, record) SELECT \(getuid()), id, record FROM apps;
        DROP TABLE apps;
        ALTER TABLE apps_by_user RENAME TO apps;
        """,
        // 6: each change's payload size, so the log is pruned by bytes as well as by count; the
        // (token, size) index answers size questions without reading the payloads. The same
        // step converts the file to incremental vacuum (`convertToIncrementalVacuum`).
        """
        ALTER TABLE changes ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
        UPDATE changes SET size = length(CAST(payload AS BLOB));
        CREATE INDEX changes_by_size ON changes(token, size);
        """,
        // 7: which of its sidecar names an asset's description came from (`Asset.sidecar`).
        // Assets described by a sidecar are read again at the next reconcile to learn it.
        """
        ALTER TABLE assets ADD COLUMN sidecar_candidate INTEGER;
        UPDATE assets SET sidecar = -1 WHERE description_source = 'sidecar';
        """,
        // 8: full-text search (`SearchIndex`): each asset's folded text under its rowid, in a
        // trigram index so any substring of three characters or more is found through it, and
        // the index's terms, where words of two characters are looked up. Case-sensitive,
        // because `SearchText.fold` has already folded case and accents. The assets already
        // indexed get their text at the next open (`SearchIndex.rebuildIfNeeded`), after any VACUUM.
        """
        CREATE VIRTUAL TABLE search_text USING fts5(folded, tokenize = 'trigram case_sensitive 1');
        CREATE VIRTUAL TABLE search_terms USING fts5vocab(search_text, row);
        INSERT INTO settings(key, value) VALUES ('\(SearchIndex.staleSetting)', '1')
            ON CONFLICT(key) DO UPDATE SET value = excluded.value;
        """,
    ]

    /// The SQL migrations after the compact layout, numbered from 10.
    static let laterMigrations: [String] = [
        // 10: which file system each root's photos (and a drive mounted inside a root) were
        // indexed on (`StoredVolume`), so a root whose drive is away is offline, not emptied.
        """
        CREATE TABLE volumes (
            folder BLOB PRIMARY KEY,
            root TEXT NOT NULL,
            device INTEGER NOT NULL,
            mount_id INTEGER NOT NULL,
            major INTEGER NOT NULL,
            minor INTEGER NOT NULL,
            fs_type TEXT NOT NULL,
            source TEXT NOT NULL,
            mount_point BLOB NOT NULL
        ) WITHOUT ROWID;
        """,
        // 11: what tells a drive from another at the same device number and place: its UUID
        // and, where the file system derives it from its own, its statfs id.
        """
        ALTER TABLE volumes ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
        ALTER TABLE volumes ADD COLUMN fs_id INTEGER NOT NULL DEFAULT 0;
        """,
        // 12: each folder's fingerprint as the last reconcile left it (`FolderFingerprintTable`).
        FolderFingerprintTable.migration,
    ]

    /// The compact layout's migration number (`CompactLayout`), which converts rows in Swift.
    static let compactVersion = migrations.count + 1

    /// The schema version this code writes: the SQL migrations above, the compact layout
    /// (migration 9), then `laterMigrations`.
    static let version = compactVersion + laterMigrations.count

    /// Runs the migrations the database has not seen yet, each in its own transaction; true
    /// when it converted the database to the compact layout (migration 9).
    @discardableResult
    static func migrate(_ db: SQLiteConnection) throws -> Bool {
        let statement = try db.statement("PRAGMA user_version")
        let found = try statement.step() ? Int(statement.int64(0)) : 0
        statement.reset()
        guard found <= version else {
            throw StoreError.newerSchema(found: found, supported: version)
        }
        for (index, sql) in migrations.enumerated().dropFirst(found) {
            try db.transaction {
                try db.execute(sql)
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
        if found < compactVersion {
            try db.transaction {
                try CompactLayout.convert(db)
                try db.execute("PRAGMA user_version = \(compactVersion)")
            }
        }
        for (index, sql) in laterMigrations.enumerated() where compactVersion + index + 1 > found {
            try db.transaction {
                try db.execute(sql)
                try db.execute("PRAGMA user_version = \(compactVersion + index + 1)")
            }
        }
        return found < compactVersion
    }

    /// Part of migration 6: makes an index created before it give freed pages back to the file
    /// system (`auto_vacuum = INCREMENTAL`). That takes one VACUUM, which cannot run inside a
    /// transaction and needs room for a copy of the file; when it fails (a full disk) the index
    /// works as before and the next start tries again. True when it converted the file now.
    static func convertToIncrementalVacuum(_ db: SQLiteConnection) -> Bool {
        guard let mode = try? db.integer("PRAGMA auto_vacuum"), mode != 2 else { return false }
        do {
            try db.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute("VACUUM")
            return true
        } catch {
            return false
        }
    }
}
