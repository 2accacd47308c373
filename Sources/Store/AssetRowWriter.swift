import FileSystem
import SQLite

/// Writes asset rows in the compact layout (`CompactLayout`, `AssetEncoding`): their stems,
/// group and camera numbers, and their search text. Used inside the writer's transactions only.
struct AssetRowWriter {
    let db: SQLiteConnection
    /// Rows numbered above this have no search text yet: a bulk load writes it at its end
    /// (`BulkLoad`); `Int64.max` outside one.
    var searchTextAbove: Int64 = .max

    /// The newest asset seen per group since the last refresh, and the groups that lost or
    /// changed an asset (their newest must be looked up again).
    private(set) var newest: [Int64: Newest] = [:]
    private(set) var lostAssets: Set<Int64> = []

    /// Numbers of groups and cameras, and the stem of the last path placed, as this writer
    /// looked them up or added them. A writer lives inside one transaction, which alone writes
    /// these tables while it lasts, so they stay true until the writer itself deletes rows
    /// (`forgetGroups()`, `release`); a rolled-back transaction takes its writer, and them, along.
    private var groups: [String: Int64] = [:]
    private var cameras: [Camera: Int64] = [:]
    private var lastStem: (folder: Int64, path: [UInt8])?
    /// The INSERT, prepared (or found in the connection's cache) once per writer, not per row.
    private var insertStatement: SQLiteStatement?

    private struct Camera: Hashable {
        var make: String?
        var model: String?
    }

    struct Newest {
        var key: Int64
        var id: SQLiteValue
        var taken: String?
        var mtimeNs: Int64
    }

    init(db: SQLiteConnection, searchTextAbove: Int64 = .max) {
        self.db = db
        self.searchTextAbove = searchTextAbove
    }

    /// Inserts a row (with `number` as its rowid when given); false when a unique constraint
    /// (id or path) refused it. Returns the new row's number.
    mutating func insert(number: Int64? = nil, id: SQLiteValue, path: PathBytes, stamp: FileStamp,
                         content: AssetContent) throws -> Int64? {
        let (folder, name) = try place(path)
        let statement = try insertStatement ?? db.statement("""
            INSERT INTO assets (number, id, folder, name, device, inode, size, mtime_ns, sidecar, group_id, spelling,
              description, description_source, format, taken, taken_key, width, height, orientation, camera,
              sidecar_candidate)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertStatement = statement
        statement.reset()
        let group = try groupID(key: content.groupKey)
        let values: [SQLiteValue] = [number.map { .integer($0) } ?? .null, id, .integer(folder), .blob(name)]
            + (try row(stamp: stamp, group: group, content: content))
        do {
            try statement.bind(values).run()
        } catch {
            statement.reset()
            guard error.isConstraintViolation else { throw error }
            try release(folder: folder)
            return nil
        }
        let number = db.lastInsertRowID
        if number <= searchTextAbove { try SearchIndex.insert(db, rowid: number, path: path, content: content) }
        noteNewest(group: group, id: id, stamp: stamp, content: content)
        return number
    }

    /// Rewrites row `number` (which was `old`) with a new path, stamp and content.
    mutating func update(number: Int64, id: String, old: Existing, path: PathBytes, stamp: FileStamp,
                         content: AssetContent) throws {
        var (folder, name) = (old.folder, old.name)
        if path != old.path {
            (folder, name) = try place(path)
        }
        let group = try groupID(key: content.groupKey)
        try db.statement("""
            UPDATE assets SET folder = ?, name = ?, device = ?, inode = ?, size = ?, mtime_ns = ?, sidecar = ?,
              group_id = ?, spelling = ?, description = ?, description_source = ?, format = ?, taken = ?, taken_key = ?,
              width = ?, height = ?, orientation = ?, camera = ?, sidecar_candidate = ?
            WHERE number = ?
            """).bind([.integer(folder), .blob(name)] + (try row(stamp: stamp, group: group, content: content))
                + [.integer(number)]).run()
        if folder != old.folder { try release(folder: old.folder) }
        if number <= searchTextAbove,
           SearchIndex.textChanges(from: (old.path, old.content), to: (path, content)) {
            try SearchIndex.remove(db, rowid: number, path: old.path, content: old.content)
            try SearchIndex.insert(db, rowid: number, path: path, content: content)
        }
        // Its group's newest asset can change only if it leaves the group or its place in taken
        // order (or what the group shows of it) changes. A move keeps them: no query for the
        // newest afterwards, which during a bulk load (no order index) read the whole table per
        // group after a renamed root's 100,000 moves.
        if group != old.group || content.takenNs != old.content.takenNs || content.taken != old.content.taken
            || stamp.mtimeNs != old.stamp.mtimeNs {
            lostAssets.insert(old.group)
            noteNewest(group: group, id: AssetEncoding.id(id), stamp: stamp, content: content)
        }
    }

    /// Deletes row `number` (which was `old`).
    mutating func delete(number: Int64, old: Existing) throws {
        try db.statement("DELETE FROM assets WHERE number = ?").bind([.integer(number)]).run()
        try release(folder: old.folder)
        if number <= searchTextAbove { try SearchIndex.remove(db, rowid: number, path: old.path, content: old.content) }
        lostAssets.insert(old.group)
    }

    /// Moves row `number` out of the way of its path for the rest of the transaction (a swap or
    /// rotation of names inside one batch): its name becomes a NUL and its id, which no file name holds.
    func park(number: Int64, id: String) throws {
        try db.statement("UPDATE assets SET name = ? WHERE number = ?")
            .bind([.blob([0] + Array(id.utf8)), .integer(number)]).run()
    }

    /// The columns after `name`, in the order of the statements above.
    private mutating func row(stamp: FileStamp, group: Int64, content: AssetContent) throws -> [SQLiteValue] {
        [
            .integer(Int64(bitPattern: stamp.device)), .integer(Int64(bitPattern: stamp.inode)), .integer(stamp.size),
            .integer(stamp.mtimeNs), .integer(stamp.sidecar), .integer(group),
            AssetEncoding.spelling(content.groupSpelling, key: content.groupKey),
            AssetEncoding.description(content.description, spelling: content.groupSpelling),
            AssetEncoding.name(content.descriptionSource), AssetEncoding.name(content.format),
            AssetEncoding.taken(content.taken, takenNs: content.takenNs), .integer(content.takenNs ?? stamp.mtimeNs),
            .integer(content.width), .integer(content.height), .integer(content.orientation),
            try cameraID(make: content.make, model: content.model).map { .integer($0) } ?? .null,
            .integer(content.sidecarCandidate),
        ]
    }

    /// The stem for `path` and the rest (`PathStems.place`). A path under the last stem placed
    /// is under no other (no stem is a prefix of another): no query for a folder's next photo.
    private mutating func place(_ path: PathBytes) throws -> (folder: Int64, name: [UInt8]) {
        let path = path.bytes
        if let lastStem, path.count > lastStem.path.count, path.starts(with: lastStem.path) {
            return (lastStem.folder, Array(path[lastStem.path.count...]))
        }
        let (folder, name) = try PathStems.place(db, path)
        // Placing may have merged (deleted) deeper stems, the last one among them.
        lastStem = (folder, Array(path.prefix(path.count - name.count)))
        return (folder, name)
    }

    /// Deletes the stem when no row uses it any more (`PathStems.release`).
    private mutating func release(folder: Int64) throws {
        lastStem = nil
        try PathStems.release(db, folder: folder)
    }

    /// Forgets the group numbers known: the caller is about to delete groups.
    mutating func forgetGroups() { groups = [:] }

    /// The number of the group keyed `key`, adding the group (empty, for now) when it is new:
    /// `BatchWriter` counts it at the end of the batch.
    mutating func groupID(key: String) throws -> Int64 {
        if let known = groups[key] { return known }
        let number = try lookUpGroup(key: key)
        groups[key] = number
        return number
    }

    private func lookUpGroup(key: String) throws -> Int64 {
        let find = try db.statement("SELECT id FROM groups WHERE key = ?")
        defer { find.reset() }
        try find.bind([.text(key)])
        if try find.step() { return find.int64(0) }
        try db.statement("INSERT INTO groups(key, name, count) VALUES (?, ?, 0)").bind([.text(key), .text(key)]).run()
        return db.lastInsertRowID
    }

    /// The number of the camera (make, model), adding it when it is new; nil for neither.
    private mutating func cameraID(make: String?, model: String?) throws -> Int64? {
        guard make != nil || model != nil else { return nil }
        let camera = Camera(make: make, model: model)
        if let known = cameras[camera] { return known }
        let number = try lookUpCamera(camera)
        cameras[camera] = number
        return number
    }

    private func lookUpCamera(_ camera: Camera) throws -> Int64 {
        let (make, model) = (camera.make, camera.model)
        let find = try db.statement("SELECT id FROM cameras WHERE make IS ? AND model IS ?")
        defer { find.reset() }
        try find.bind([.text(make), .text(model)])
        if try find.step() { return find.int64(0) }
        try db.statement("INSERT INTO cameras(make, model) VALUES (?, ?)").bind([.text(make), .text(model)]).run()
        return db.lastInsertRowID
    }

    private mutating func noteNewest(group: Int64, id: SQLiteValue, stamp: FileStamp, content: AssetContent) {
        let candidate = Newest(key: content.takenNs ?? stamp.mtimeNs, id: id, taken: content.taken, mtimeNs: stamp.mtimeNs)
        if let known = newest[group], !Self.isNewer(candidate, than: known) { return }
        newest[group] = candidate
    }

    /// Whether `a` comes after `b` in taken order (taken key, then id).
    private static func isNewer(_ a: Newest, than b: Newest) -> Bool {
        a.key != b.key ? a.key > b.key : AssetEncoding.sortKey(b.id).lexicographicallyPrecedes(AssetEncoding.sortKey(a.id))
    }

    /// Brings each touched group's newest asset up to date: from the assets this writer added
    /// when the group lost none (no query), else from the index. All groups when `everyGroup`.
    mutating func refreshLatest(everyGroup: Bool = false) throws {
        var groups = Set(newest.keys).union(lostAssets)
        if everyGroup {
            let all = try db.statement("SELECT id FROM groups")
            while try all.step() { groups.insert(all.int64(0)) }
            all.reset()
        }
        for group in groups {
            var latest: Newest?
            if !everyGroup, !lostAssets.contains(group), let added = newest[group] {
                latest = try stored(group: group).map { Self.isNewer(added, than: $0) ? added : $0 } ?? added
            } else {
                latest = try lookUpNewest(group: group)
            }
            try db.statement("""
                UPDATE groups SET latest_taken = ?, latest_mtime_ns = ?, latest_key = ?, latest_id = ? WHERE id = ?
                """).bind([.text(latest?.taken), latest.map { .integer($0.mtimeNs) } ?? .null,
                       latest.map { .integer($0.key) } ?? .null, latest?.id ?? .null, .integer(group)]).run()
        }
        newest = [:]
        lostAssets = []
    }

    private func stored(group: Int64) throws -> Newest? {
        let statement = try db.statement(
            "SELECT latest_key, latest_id, latest_taken, latest_mtime_ns FROM groups WHERE id = ? AND latest_key IS NOT NULL")
        defer { statement.reset() }
        try statement.bind([.integer(group)])
        guard try statement.step() else { return nil }
        return Newest(key: statement.int64(0), id: statement.value(1), taken: statement.text(2), mtimeNs: statement.int64(3))
    }

    private func lookUpNewest(group: Int64) throws -> Newest? {
        let statement = try db.statement(
            "SELECT taken_key, id, taken, mtime_ns FROM assets a WHERE group_id = ? ORDER BY taken_key DESC, id DESC LIMIT 1")
        defer { statement.reset() }
        try statement.bind([.integer(group)])
        guard try statement.step() else { return nil }
        let key = statement.int64(0)
        return Newest(key: key, id: statement.value(1), taken: AssetEncoding.taken(stored: statement.text(2), takenKey: key),
                      mtimeNs: statement.int64(3))
    }
}

/// A row as the writer found it before changing it.
struct Existing {
    var number: Int64
    var path: PathBytes
    var folder: Int64
    var name: [UInt8]
    var group: Int64
    var stamp: FileStamp
    var content: AssetContent
}
