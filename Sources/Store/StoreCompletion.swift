import SQLite

// Names for completing a word as a person types it: a range over an index, never a scan.
extension StoreDatabase {
    /// Group names starting with `prefix`, from the name index. Every name with the prefix sorts
    /// from the prefix up to the prefix followed by F4 90 80 80: past any UTF-8 sequence (the
    /// largest code point, U+10FFFF, is F4 8F BF BF), and names compare as bytes.
    func groupNames(withPrefix prefix: String, excluding excluded: String, maximumBytes: Int,
                    limit: Int) throws -> [String] {
        try read { db in
            let statement = try db.statement("""
                SELECT name FROM groups WHERE name >= ?1 AND name < CAST(?1 || x'F4908080' AS TEXT)
                    AND length(CAST(name AS BLOB)) <= ?2 AND key != ?3
                ORDER BY name LIMIT ?4
                """)
            try statement.bind([.text(prefix), .integer(Int64(maximumBytes)), .text(excluded), .integer(Int64(limit))])
            var names: [String] = []
            while try statement.step() {
                if let name = statement.text(0) { names.append(name) }
            }
            return names
        }
    }
}
