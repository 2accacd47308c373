import FileSystem
import SQLite

/// The column lists the asset queries select, and where each column sits in one query's result,
/// found by name once per query (`SQLiteStatement.column(named:)`), so a query may select them
/// in any order and a reordered column list can never shift a value into the wrong field.
enum AssetRowDecoder {
    /// The content columns of `assets a` and the tables `joins` adds.
    static let contentColumns = """
        g.key AS group_key, a.spelling, a.description, a.description_source, a.format, a.taken, a.taken_key, \
        a.width, a.height, a.orientation, c.make, c.model, a.sidecar_candidate
        """

    /// The stamp columns.
    static let stampColumns = "a.device, a.inode, a.size, a.mtime_ns, a.sidecar"

    /// A whole asset row with its group's name (`AssetColumns`).
    static let assetColumns = "a.id, f.path AS folder_path, a.name AS file_name, \(stampColumns), g.name AS group_name, "
        + contentColumns

    /// What the columns above need joined to `assets a`: its group, its stem and its camera.
    static let joins = """
        JOIN groups g ON g.id = a.group_id JOIN folders f ON f.id = a.folder LEFT JOIN cameras c ON c.id = a.camera
        """
}

/// Where a query's stamp columns are.
struct StampColumns {
    let device, inode, size, mtime, sidecar: Int32

    /// Finds the columns of `AssetRowDecoder.stampColumns` in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        device = try statement.column(named: "device")
        inode = try statement.column(named: "inode")
        size = try statement.column(named: "size")
        mtime = try statement.column(named: "mtime_ns")
        sidecar = try statement.column(named: "sidecar")
    }

    /// The current row's stamp.
    func decode(_ statement: SQLiteStatement) -> FileStamp {
        FileStamp(
            device: UInt64(bitPattern: statement.int64(device)), inode: UInt64(bitPattern: statement.int64(inode)),
            size: statement.int64(size), mtimeNs: statement.int64(mtime), sidecar: statement.int64(sidecar))
    }
}

/// Where a query's content columns are.
struct ContentColumns {
    let groupKey, spelling, description, descriptionSource, format, taken, takenKey: Int32
    let width, height, orientation, make, model, sidecarCandidate: Int32

    /// Finds the columns of `AssetRowDecoder.contentColumns` in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        groupKey = try statement.column(named: "group_key")
        spelling = try statement.column(named: "spelling")
        description = try statement.column(named: "description")
        descriptionSource = try statement.column(named: "description_source")
        format = try statement.column(named: "format")
        taken = try statement.column(named: "taken")
        takenKey = try statement.column(named: "taken_key")
        width = try statement.column(named: "width")
        height = try statement.column(named: "height")
        orientation = try statement.column(named: "orientation")
        make = try statement.column(named: "make")
        model = try statement.column(named: "model")
        sidecarCandidate = try statement.column(named: "sidecar_candidate")
    }

    /// The current row's content.
    func decode(_ statement: SQLiteStatement) -> AssetContent {
        let key = statement.text(groupKey) ?? ""
        let spelling = statement.text(spelling) ?? key
        let takenKey = statement.int64(takenKey)
        let takenText = AssetEncoding.taken(stored: statement.text(taken), takenKey: takenKey)
        return AssetContent(
            groupKey: key,
            groupSpelling: spelling,
            description: AssetEncoding.description(statement, description, spelling: spelling),
            descriptionSource: AssetEncoding.name(statement, descriptionSource),
            format: AssetEncoding.name(statement, format) ?? "",
            taken: takenText,
            takenNs: takenText == nil ? nil : takenKey,
            width: statement.optionalInt(width),
            height: statement.optionalInt(height),
            orientation: statement.optionalInt(orientation),
            make: statement.text(make),
            model: statement.text(model),
            sidecarCandidate: statement.optionalInt(sidecarCandidate))
    }
}

/// Where the columns of `AssetRowDecoder.assetColumns` are: a whole asset row with its group's name.
struct AssetColumns {
    let id, stem, name, groupName: Int32
    let stamp: StampColumns
    let content: ContentColumns

    /// Finds the columns in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        id = try statement.column(named: "id")
        stem = try statement.column(named: "folder_path")
        name = try statement.column(named: "file_name")
        groupName = try statement.column(named: "group_name")
        stamp = try StampColumns(statement)
        content = try ContentColumns(statement)
    }

    /// The current row's asset.
    func decode(_ statement: SQLiteStatement) -> StoredAsset {
        StoredAsset(
            id: AssetEncoding.idText(statement, id), path: PathBytes(statement.blob(stem, followedBy: name)),
            stamp: stamp.decode(statement),
            groupName: statement.text(groupName) ?? "", content: content.decode(statement))
    }
}

extension AssetColumns {
    /// The assets `sql` (selecting `AssetRowDecoder.assetColumns`) finds with `values` bound.
    static func rows(_ db: SQLiteConnection, _ sql: String, _ values: [SQLiteValue]) throws -> [StoredAsset] {
        let statement = try db.statement(sql)
        try statement.bind(values)
        let columns = try AssetColumns(statement)
        var rows: [StoredAsset] = []
        while try statement.step() { rows.append(columns.decode(statement)) }
        return rows
    }
}

/// Where a query's group columns are: `key, name, count, latest_taken, latest_mtime_ns`.
struct GroupColumns {
    let key, name, count, latestTaken, latestMtime: Int32

    /// Finds the columns in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        key = try statement.column(named: "key")
        name = try statement.column(named: "name")
        count = try statement.column(named: "count")
        latestTaken = try statement.column(named: "latest_taken")
        latestMtime = try statement.column(named: "latest_mtime_ns")
    }

    /// The current row's group.
    func decode(_ statement: SQLiteStatement) -> StoredGroup {
        StoredGroup(
            key: statement.text(key) ?? "", name: statement.text(name) ?? "", count: Int(statement.int64(count)),
            latestTaken: statement.text(latestTaken),
            latestMtimeNs: statement.isNull(latestMtime) ? nil : statement.int64(latestMtime))
    }
}
