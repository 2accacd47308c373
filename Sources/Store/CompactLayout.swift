import FileSystem
import SQLite

/// Migration 9: the compact layout, about 300 bytes per photo where the first layout took 860.
///
/// - A path is a stem (`folders`, see `PathStems`) and the rest (`assets.name`), so the library's
///   folder names are stored once instead of in every row and every path index.
/// - Groups and cameras are numbered (`groups.id`, `cameras`): a row holds a small integer.
/// - The order indexes hold the sort value alone: the row's rowid follows it in the index, and a
///   tie on the value is sorted by id among the few rows that share it.
/// - Search is a contentless trigram index without positions (`SearchIndex`).
/// - Ids, camera times and names are stored compactly (`AssetEncoding`).
///
/// `assets.number` is the rowid, named so that VACUUM keeps it: the search index is keyed by it.
enum CompactLayout {
    static let tables = """
        CREATE TABLE folders (
            id INTEGER PRIMARY KEY,
            path BLOB NOT NULL UNIQUE
        );
        CREATE TABLE groups (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            count INTEGER NOT NULL,
            latest_taken TEXT,
            latest_mtime_ns INTEGER,
            latest_key INTEGER,
            latest_id BLOB
        );
        CREATE INDEX groups_by_name ON groups(name);
        CREATE TABLE cameras (
            id INTEGER PRIMARY KEY,
            make TEXT,
            model TEXT
        );
        CREATE INDEX cameras_by_name ON cameras(make, model);
        CREATE TABLE assets (
            number INTEGER PRIMARY KEY,
            id BLOB NOT NULL,
            folder INTEGER NOT NULL,
            name BLOB NOT NULL,
            device INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            sidecar INTEGER NOT NULL,
            group_id INTEGER NOT NULL,
            spelling TEXT,
            description,
            description_source,
            format NOT NULL,
            taken TEXT,
            taken_key INTEGER NOT NULL,
            width INTEGER,
            height INTEGER,
            orientation INTEGER,
            camera INTEGER,
            sidecar_candidate INTEGER
        );
        CREATE UNIQUE INDEX assets_by_id ON assets(id);
        CREATE UNIQUE INDEX assets_by_path ON assets(folder, name);
        """

    /// The unique index on asset ids (in `tables`), which a first index's bulk load makes at its end.
    static let idIndexName = "assets_by_id"

    /// The indexes only queries use (the writer finds rows by id and path alone): left out
    /// during a bulk load and built once after it (`BulkLoad`).
    static let secondaryIndexes: [(name: String, columns: String)] = [
        ("assets_by_taken", "taken_key"),
        ("assets_by_group_taken", "group_id, taken_key"),
        ("assets_by_modified", "mtime_ns"),
        ("assets_by_group_modified", "group_id, mtime_ns"),
        ("assets_by_group_path", "group_id, folder, name"),
        (identityIndexName, "inode"),
    ]

    /// Creates the secondary indexes that are missing.
    static func createSecondaryIndexes(_ db: SQLiteConnection) throws {
        for index in secondaryIndexes {
            try db.execute("CREATE INDEX IF NOT EXISTS \(index.name) ON assets(\(index.columns))")
        }
    }

    /// The index on inodes (in `secondaryIndexes`), which finding moved files looks new files up in.
    static let identityIndexName = "assets_by_identity"

    /// Drops the secondary indexes but those named in `keeping`.
    static func dropSecondaryIndexes(_ db: SQLiteConnection, keeping: Set<String> = []) throws {
        for index in secondaryIndexes where !keeping.contains(index.name) {
            try db.execute("DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// Converts a schema-8 index inside the caller's transaction: every asset keeps its id,
    /// rowid, path, stamp and content, every group its key, name and count, the change log and
    /// app records stay as they are; the search index is built anew.
    static func convert(_ db: SQLiteConnection) throws {
        try db.execute("""
            DROP TABLE search_terms;
            DROP TABLE search_text;
            DROP INDEX assets_by_group_taken;
            DROP INDEX assets_by_group_path;
            DROP INDEX assets_by_group_modified;
            DROP INDEX assets_by_taken;
            DROP INDEX assets_by_modified;
            DROP INDEX assets_by_identity;
            DROP INDEX groups_by_name;
            ALTER TABLE assets RENAME TO old_assets;
            ALTER TABLE groups RENAME TO old_groups;
            """)
        try db.execute(tables)
        try db.execute(SearchIndex.tables)
        try db.execute("""
            INSERT INTO groups(key, name, count, latest_taken, latest_mtime_ns)
                SELECT key, name, count, latest_taken, latest_mtime_ns FROM old_groups ORDER BY key;
            """)
        let rows = try db.statement("""
            SELECT rowid, id, path, \(AssetRowDecoder.stampColumns), group_key, group_spelling AS spelling, description,
              description_source, format, taken, taken_key, width, height, orientation, make, model, sidecar_candidate
            FROM old_assets a ORDER BY rowid
            """)
        let (rowid, id, path) = (try rows.column(named: "rowid"), try rows.column(named: "id"), try rows.column(named: "path"))
        let stamp = try StampColumns(rows)
        // The compact columns read plain text as it is (`AssetEncoding`), so the old row decodes alike.
        let content = try ContentColumns(rows)
        var writer = AssetRowWriter(db: db)
        while try rows.step() {
            // Ids and paths were unique already: a refusal would lose a photo, so it stops the migration.
            guard try writer.insert(number: rows.int64(rowid), id: AssetEncoding.id(rows.text(id) ?? ""), path: PathBytes(rows.blob(path)),
                                    stamp: stamp.decode(rows), content: content.decode(rows)) != nil
            else { throw SQLiteError(code: 19, message: "cannot convert asset \(rows.text(id) ?? "")") }
        }
        rows.reset()
        try writer.refreshLatest()
        try createSecondaryIndexes(db)
        try db.execute("DROP TABLE old_assets; DROP TABLE old_groups")
        try SearchIndex.fill(db, after: 0)
        try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(SearchIndex.staleSetting)]).run()
    }
}
