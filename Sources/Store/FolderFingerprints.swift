import FileSystem
import SQLite

/// Each folder's `FolderFingerprint` as of the last reconcile that made the index match it, so a
/// restart over an unchanged folder compares nothing of it but the fingerprint (`FolderCheck`).
///
/// A recorded fingerprint is only worth anything while the index's rows under it are the ones
/// the reconcile left. So any write to an asset's path or stamp, by anything, marks the folders
/// of its stem unknown in the same transaction (SQL triggers, so no writer can forget to): every
/// recorded folder under the stem gets a NULL fingerprint, and the stem's own folder a NULL row,
/// which stays until a reconcile records the root again. A NULL under a root means the restart
/// compares the root file by file. A bulk load goes without the triggers (a first index fires
/// them for every row) and forgets every fingerprint when it begins; it puts them back at its end.
enum FolderFingerprintTable {
    /// Migration 12: the table and its triggers.
    static let migration = """
        CREATE TABLE IF NOT EXISTS folder_fingerprints (
            path BLOB PRIMARY KEY,
            fingerprint BLOB
        ) WITHOUT ROWID;
        \(createTriggers)
        """

    /// The folders under the stem whose path is `stem` (an SQL expression) marked unknown, and
    /// the stem's own folder with them. The upper bound of a stem's paths is the stem with its
    /// final "/" made "0", the next byte.
    private static func forget(stem: String) -> String {
        """
        UPDATE folder_fingerprints SET fingerprint = NULL
            WHERE path >= \(stem) AND path < CAST(substr(\(stem), 1, length(\(stem)) - 1) || '0' AS BLOB);
        INSERT INTO folder_fingerprints(path, fingerprint) SELECT \(stem), NULL WHERE \(stem) IS NOT NULL
            ON CONFLICT(path) DO UPDATE SET fingerprint = NULL;
        """
    }

    /// The same for the stem numbered `folder` (an SQL expression).
    private static func forget(_ folder: String) -> String {
        forget(stem: "(SELECT path FROM folders WHERE id = \(folder))")
    }

    static let triggerNames = ["folder_fingerprints_insert", "folder_fingerprints_delete", "folder_fingerprints_update",
                               "folder_fingerprints_stem"]

    /// The triggers. A stem's path is never rewritten by photod (stems are merged by moving
    /// their rows), but one rewritten by anything else moves every row under it at once.
    static let createTriggers = """
        CREATE TRIGGER IF NOT EXISTS folder_fingerprints_insert AFTER INSERT ON assets BEGIN
        \(forget("NEW.folder"))
        END;
        CREATE TRIGGER IF NOT EXISTS folder_fingerprints_delete AFTER DELETE ON assets BEGIN
        \(forget("OLD.folder"))
        END;
        CREATE TRIGGER IF NOT EXISTS folder_fingerprints_update
            AFTER UPDATE OF folder, name, device, inode, size, mtime_ns, sidecar ON assets BEGIN
        \(forget("OLD.folder"))
        \(forget("NEW.folder"))
        END;
        CREATE TRIGGER IF NOT EXISTS folder_fingerprints_stem AFTER UPDATE OF path ON folders BEGIN
        \(forget(stem: "OLD.path"))
        \(forget(stem: "NEW.path"))
        END;
        """

    /// A bulk load's beginning: no triggers, and nothing recorded (its writes are not tracked).
    static let suspend = triggerNames.map { "DROP TRIGGER IF EXISTS \($0);" }.joined(separator: "\n")
        + "\nDELETE FROM folder_fingerprints;"

    /// The SQL condition on `path` that it lies under `root`, and its values.
    static func range(_ root: PathBytes) -> (sql: String, values: [SQLiteValue]) {
        let prefix = root.folderPrefix.bytes
        return PathStems.between("path", from: prefix, below: PathStems.upperBound(of: prefix))
    }
}

/// The fingerprints recorded for the folders under a root; `unknown` when any of them is marked
/// unknown (a write since), when the restart must compare the root file by file anyway.
public struct RecordedFingerprints: Sendable {
    /// Each recorded folder (its path with a trailing "/") and its fingerprint.
    public var folders: [PathBytes: FolderFingerprint] = [:]
    /// Some folder under the root is marked unknown.
    public var unknown = false

    /// Creates an empty record.
    public init(folders: [PathBytes: FolderFingerprint] = [:], unknown: Bool = false) {
        self.folders = folders
        self.unknown = unknown
    }
}

extension StoreDatabase {
    /// The fingerprints recorded for the folders under `root`.
    public func recordedFingerprints(under root: PathBytes) throws -> RecordedFingerprints {
        try read { db in
            let range = FolderFingerprintTable.range(root)
            let statement = try db.statement("SELECT path, fingerprint FROM folder_fingerprints WHERE \(range.sql)")
            try statement.bind(range.values)
            var recorded = RecordedFingerprints()
            while try statement.step() {
                guard let fingerprint = FolderFingerprint(bytes: statement.blob(1)) else {
                    recorded.unknown = true
                    continue
                }
                recorded.folders[PathBytes(statement.blob(0))] = fingerprint
            }
            return recorded
        }
    }

    /// Records `folders` (path with a trailing "/", fingerprint) after a reconcile of `root`
    /// made the index match them, and marks `unknown` ones so (a folder with a file that could
    /// not be read: its rows may not be what is there, and the next reconcile compares the root
    /// file by file). `complete`: the reconcile saw the whole root, so a folder recorded under
    /// it before and not among these is gone and forgotten.
    public func recordFingerprints(under root: PathBytes, _ folders: [(PathBytes, FolderFingerprint)],
                                   unknown: Set<PathBytes> = [], complete: Bool) throws {
        try write { db in
            try db.transaction {
                if complete {
                    let range = FolderFingerprintTable.range(root)
                    let stale = try db.statement("SELECT path FROM folder_fingerprints WHERE \(range.sql)")
                    try stale.bind(range.values)
                    var gone: [[UInt8]] = []
                    let recorded = Set(folders.map(\.0))
                    while try stale.step() {
                        let path = PathBytes(stale.blob(0))
                        if !recorded.contains(path), !unknown.contains(path) { gone.append(path.bytes) }
                    }
                    stale.reset()
                    for path in gone {
                        try db.statement("DELETE FROM folder_fingerprints WHERE path = ?").bind([.blob(path)]).run()
                    }
                }
                let insert = """
                    INSERT INTO folder_fingerprints(path, fingerprint) VALUES (?, ?)
                        ON CONFLICT(path) DO UPDATE SET fingerprint = excluded.fingerprint
                    """
                for (path, fingerprint) in folders {
                    try db.statement(insert).bind([.blob(path.bytes), .blob(fingerprint.bytes)]).run()
                }
                for path in unknown {
                    try db.statement(insert).bind([.blob(path.bytes), .null]).run()
                }
            }
        }
    }
}
