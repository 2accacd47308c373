import SQLite

/// Reads the content columns shared by every asset query, in schema order.
enum AssetRowDecoder {
    /// The columns from `group_key` to `model`, as selected by `contentColumns`.
    static let contentColumns = """
        group_key, group_spelling, description, description_source, format, taken, taken_key, width, height, \
        orientation, make, model
        """

    /// The stamp columns, in the order `stamp(_:from:)` decodes them.
    static let stampColumns = "device, inode, size, mtime_ns, sidecar"

    /// Decodes `stampColumns` (five columns) starting at `first`.
    static func stamp(_ statement: SQLiteStatement, from first: Int32) -> FileStamp {
        FileStamp(
            device: UInt64(bitPattern: statement.int64(first)), inode: UInt64(bitPattern: statement.int64(first + 1)),
            size: statement.int64(first + 2), mtimeNs: statement.int64(first + 3), sidecar: statement.int64(first + 4))
    }

    /// Decodes `contentColumns` starting at column `first`.
    static func content(_ statement: SQLiteStatement, from first: Int32) -> AssetContent {
        let taken = statement.text(first + 5)
        return AssetContent(
            groupKey: statement.text(first) ?? "",
            groupSpelling: statement.text(first + 1) ?? "",
            description: statement.text(first + 2),
            descriptionSource: statement.text(first + 3),
            format: statement.text(first + 4) ?? "",
            taken: taken,
            takenNs: taken == nil ? nil : statement.int64(first + 6),
            width: statement.optionalInt(first + 7),
            height: statement.optionalInt(first + 8),
            orientation: statement.optionalInt(first + 9),
            make: statement.text(first + 10),
            model: statement.text(first + 11))
    }
}
