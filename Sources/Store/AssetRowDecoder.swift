import SQLite

/// The column lists the asset queries select, and where each column sits in one query's result,
/// found by name once per query (`SQLiteStatement.column(named:)`), so a query may select them
/// in any order and a reordered column list can never shift a value into the wrong field.
enum AssetRowDecoder {
    /// The content columns, from `group_key` to `sidecar_candidate`.
    static let contentColumns = """
        group_key, group_spelling, description, description_source, format, taken, taken_key, width, height, \
        orientation, make, model, sidecar_candidate
        """

    /// The stamp columns.
    static let stampColumns = "device, inode, size, mtime_ns, sidecar"
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
    let groupKey, groupSpelling, description, descriptionSource, format, taken, takenKey: Int32
    let width, height, orientation, make, model, sidecarCandidate: Int32

    /// Finds the columns of `AssetRowDecoder.contentColumns` in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        groupKey = try statement.column(named: "group_key")
        groupSpelling = try statement.column(named: "group_spelling")
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
        let takenText = statement.text(taken)
        return AssetContent(
            groupKey: statement.text(groupKey) ?? "",
            groupSpelling: statement.text(groupSpelling) ?? "",
            description: statement.text(description),
            descriptionSource: statement.text(descriptionSource),
            format: statement.text(format) ?? "",
            taken: takenText,
            takenNs: takenText == nil ? nil : statement.int64(takenKey),
            width: statement.optionalInt(width),
            height: statement.optionalInt(height),
            orientation: statement.optionalInt(orientation),
            make: statement.text(make),
            model: statement.text(model),
            sidecarCandidate: statement.optionalInt(sidecarCandidate))
    }
}

/// Where the columns of `StoreDatabase.assetColumns` are: a whole asset row with its group's name.
struct AssetColumns {
    let id, path, groupName: Int32
    let stamp: StampColumns
    let content: ContentColumns

    /// Finds the columns in `statement`'s result.
    init(_ statement: SQLiteStatement) throws(SQLiteError) {
        id = try statement.column(named: "id")
        path = try statement.column(named: "path")
        groupName = try statement.column(named: "name")
        stamp = try StampColumns(statement)
        content = try ContentColumns(statement)
    }

    /// The current row's asset.
    func decode(_ statement: SQLiteStatement) -> StoredAsset {
        StoredAsset(
            id: statement.text(id) ?? "", path: statement.blob(path), stamp: stamp.decode(statement),
            groupName: statement.text(groupName) ?? "", content: content.decode(statement))
    }
}

extension AssetColumns {
    /// The assets `sql` (selecting `StoreDatabase.assetColumns`) finds with `values` bound.
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
