import SQLite

/// The SQL of one search page, newest first, of one group or all, after a position, and the
/// check of each photo it yields against the query's words.
///
/// The index finds a superset (`SearchIndex` keeps no positions), so every photo a statement
/// yields is checked against its own text, and the page ends after `limit` photos that pass.
/// The statements carry no LIMIT: the taken order comes from an index (ties on the time
/// sorted as they come), so stopping early costs nothing. A page also stops once it has examined
/// `budget` photos (`SearchPage.stoppedAfter`), so no query holds a reader for longer than that
/// costs, and between any two photos once its `control` is cancelled. Three shapes, so the statement cache
/// holds a handful of statements whatever is searched (rowids and the FTS5 expression travel
/// as bound values):
/// - `rowids`: the photos the index matched, fetched by rowid and sorted — for few matches;
/// - `walk`: the taken-order index walked newest first, keeping photos among the matches — for
///   many, since it stops after a page instead of sorting them all;
/// - `scan`: every photo in taken order — when the index cannot help (one-character words, a
///   bulk load under way), and for a limited app, from its own selection.
struct SearchPlan {
    let groupKey: String?
    let position: StorePosition?
    let limit: Int
    /// The folded words every photo's text must hold.
    let words: [String]
    /// Most photos the page examines.
    var budget: Int = .max
    /// Cancels the page between photos, and counts them.
    var control = SearchControl()

    enum Shape {
        case rowids([Int64])
        case walk(expression: String)
        /// `ordered`: walk the taken-order index (false when it may be missing, or a selection picks the way in).
        case scan(selection: StoreSelection?, ordered: Bool)
    }

    /// The page `shape` finds.
    func rows(_ db: SQLiteConnection, _ shape: Shape) throws -> SearchPage {
        let check = TextCheck(words: words)
        var examined = 0
        guard case .rowids(let rowids) = shape else {
            let (sql, values) = statement(shape)
            let statement = try db.statement(sql)
            defer { statement.reset() }
            try statement.bind(values)
            let columns = try AssetColumns(statement)
            var rows: [StoredAsset] = []
            while rows.count < limit, try statement.step() {
                try control.examine()
                let asset = columns.decode(statement)
                if check.matches(asset) { rows.append(asset) }
                examined += 1
                if examined >= budget, rows.count < limit { return SearchPage(assets: rows, stoppedAfter: asset) }
            }
            return SearchPage(assets: rows)
        }
        // Sort the matches by their keys alone, then read whole rows only until the page is full.
        let (sql, values) = statement(.rowids(rowids))
        let order = try db.statement(sql)
        try order.bind(values)
        var numbers: [Int64] = []
        while try order.step() { numbers.append(order.int64(0)) }
        order.reset()
        let page = try db.statement("""
            SELECT a.number AS row_number, \(AssetRowDecoder.assetColumns) FROM assets a \(AssetRowDecoder.joins)
            WHERE a.number IN (SELECT value FROM json_each(?))
            """)
        defer { page.reset() }
        let (number, columns) = (try page.column(named: "row_number"), try AssetColumns(page))
        var rows: [StoredAsset] = []
        var next = numbers[...]
        while rows.count < limit, !next.isEmpty {
            // The next rows in order, as many as the page lacks, in one statement.
            let chunk = next.prefix(limit - rows.count)
            next = next.dropFirst(chunk.count)
            page.reset()
            try page.bind([.text("[" + chunk.map(String.init).joined(separator: ",") + "]")])
            var found: [Int64: StoredAsset] = [:]
            while try page.step() { found[page.int64(number)] = columns.decode(page) }
            for key in chunk {
                guard let asset = found[key] else { continue }
                try control.examine()
                if check.matches(asset) { rows.append(asset) }
                examined += 1
                if examined >= budget, rows.count < limit { return SearchPage(assets: rows, stoppedAfter: asset) }
            }
        }
        return SearchPage(assets: rows)
    }

    /// Tests photos' text against the words, folding each distinct description, make and model
    /// once per search (photos of one event or camera share them).
    private final class TextCheck {
        let needles: [[UInt8]]
        var folded: [String: String] = [:]

        init(words: [String]) {
            needles = words.map { Array($0.utf8) }
        }

        func matches(_ asset: StoredAsset) -> Bool {
            let content = asset.content
            let text = SearchText.document(description: content.description, path: asset.path, make: content.make,
                                           model: content.model, fold: fold)
            let bytes = Array(text.utf8)
            return needles.allSatisfy { SearchPlan.bytes(of: bytes, contain: $0) }
        }

        private func fold(_ field: String) -> String {
            if let known = folded[field] { return known }
            let result = SearchText.fold(field)
            // Bounded: a library of all-different descriptions folds each as it comes.
            if folded.count < 4096 { folded[field] = result }
            return result
        }
    }

    /// Whether `needle` occurs in `haystack`. On UTF-8 bytes this is occurrence character for
    /// character, as the index and the old LIKE test compared: a character's first byte is never
    /// the middle of another.
    static func bytes(of haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    /// The SQL and its values for `shape`.
    func statement(_ shape: Shape) -> (sql: String, values: [SQLiteValue]) {
        let ordered = groupKey == nil ? "assets a INDEXED BY assets_by_taken" : "assets a INDEXED BY assets_by_group_taken"
        let from: String
        var columns = "\(AssetRowDecoder.assetColumns)"
        var joins = " \(AssetRowDecoder.joins)"
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        switch shape {
        case .rowids(let rowids):
            from = "assets a"
            columns = "a.number"
            conditions.append("a.rowid IN (SELECT value FROM json_each(?))")
            values.append(.text("[" + rowids.map(String.init).joined(separator: ",") + "]"))
        case .walk(let expression):
            from = ordered
            conditions.append("a.rowid IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)")
            values.append(.text(expression))
        case .scan(let selection, let isOrdered):
            from = isOrdered ? ordered : "assets a"
            if let selection {
                conditions.append(StoreSelection.condition)
                values += selection.values
            }
        }
        if let groupKey {
            conditions.append("a.group_id = (SELECT id FROM groups WHERE key = ?)")
            values.append(.text(groupKey))
        }
        if let position, case .integer(let key) = position.value {
            conditions.append("(a.taken_key, a.id) < (?, ?)")
            values += [.integer(key), AssetEncoding.id(position.id)]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        if case .rowids = shape { joins = "" }
        let sql = "SELECT \(columns) FROM \(from)\(joins) \(filter) ORDER BY a.taken_key DESC, a.id DESC"
        return (sql, values)
    }
}
