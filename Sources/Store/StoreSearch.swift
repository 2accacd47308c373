import SQLite

extension Store {
    /// One page of the assets whose description, file name, make or model holds every word of
    /// `query` (ignoring case and accents), newest first (taken, else modified), after
    /// `position`; of one group when `groupKey` is given; with a selection, only its assets.
    /// The page examines at most `searchRowBudget` photos (then says where it stopped) and stops
    /// between photos when the calling task is cancelled (the client hung up) or `control` is,
    /// throwing `CancellationError`; `control` counts the photos examined.
    nonisolated(nonsending) public func searchPage(
        _ query: SearchQuery, groupKey: String?, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil, control: SearchControl = SearchControl()
    ) async throws -> SearchPage {
        try await withTaskCancellationHandler {
            try await read { [searchRowBudget] database in
                try database.search(query, groupKey: groupKey, after: position, limit: limit, selection: selection,
                                    budget: searchRowBudget, control: control)
            }
        } onCancel: {
            control.cancel()
        }
    }
}

extension StoreDatabase {
    /// Up to `limit` assets whose text holds every word of `query`, newest first (taken, else
    /// modified; then id), after `position`; of one group when `groupKey` is given; with a
    /// selection, only the assets it holds. The page examines at most `budget` photos and stops
    /// between photos once `control` is cancelled.
    func search(
        _ query: SearchQuery, groupKey: String?, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil, budget: Int = .max, control: SearchControl = SearchControl()
    ) throws -> SearchPage {
        try control.checkCancelled()
        return try read { db in
            // A client that hangs up stops even one long step (a full-text merge) at once.
            do {
                return try db.interruptible(when: { control.isCancelled }) {
                    try search(db, query, groupKey: groupKey, after: position, limit: limit, selection: selection,
                               budget: budget, control: control)
                }
            } catch let error as SQLiteError where error.isInterrupted && control.isCancelled {
                throw CancellationError()
            }
        }
    }

    /// The search on `db`, in one read transaction.
    private func search(
        _ db: SQLiteConnection, _ query: SearchQuery, groupKey: String?, after position: StorePosition?, limit: Int,
        selection: StoreSelection?, budget: Int, control: SearchControl
    ) throws -> SearchPage {
        // One snapshot for the whole search, so the bulk-load mark and the indexes agree.
        try db.transaction(immediate: false) {
            let plan = SearchPlan(groupKey: groupKey, position: position, limit: limit, words: query.words,
                                  budget: budget, control: control)
            if let selection {
                // A limited app: start from its own photos and test each one's text, never the
                // index as a whole, so neither the reply nor its timing depends on hidden photos.
                return try plan.rows(db, .scan(selection: selection, ordered: false))
            }
            // During a bulk load the search and order indexes wait for its end (`BulkLoad`).
            if try BulkLoad.isActive(db) { return try plan.rows(db, .scan(selection: nil, ordered: false)) }
            guard var match = try SearchMatch(query, terms: { try Self.terms(db, beginning: $0) }) else { return SearchPage(assets: []) }
            // Few matches: fetch and sort them. Many: walk the taken-order index keeping the rows
            // that match, which stops after a page instead of sorting every match. The walk
            // reads about total / matches index entries per row kept, in order; the sort reads
            // every match's row, at random places, about six times dearer each (1,574 matches
            // of 100,000 photos, 4 MiB cache: 2.6 ms to sort, 0.9 ms to walk). They cost the
            // same near sqrt(total × limit / 6) matches.
            let total = try Self.assetCount(db, groupKey: groupKey)
            let few = Int((Double(total) * Double(limit) / 6).squareRoot())
            // A common trigram's list ("img", "jpg": every photo) costs the most to merge and
            // narrows nothing a rare one has not: with rare ones (as short as sqrt(total ×
            // limit)), the rare ones are enough, as each photo found is checked against its
            // text anyway.
            if match.trigrams.count > 1 {
                let rareBound = Int((Double(total) * Double(limit)).squareRoot())
                var rare: [(trigram: String, rowids: [Int64])] = []
                for trigram in match.trigrams {
                    let rowids = try Self.rowids(db, matching: SearchQuery.quoted(trigram), atMost: rareBound + 1)
                    if rowids.count <= rareBound { rare.append((trigram, rowids)) }
                }
                if !rare.isEmpty { match.trigrams = rare.map(\.trigram) }
                if !rare.isEmpty, match.alternatives.isEmpty {
                    // Their lists are in hand: the photos in all of them are the candidates.
                    var candidates = Set(rare[0].rowids)
                    for list in rare.dropFirst() { candidates.formIntersection(list.rowids) }
                    guard !candidates.isEmpty else { return SearchPage(assets: []) }
                    if candidates.count <= few { return try plan.rows(db, .rowids(Array(candidates))) }
                }
            }
            guard let expression = match.expression else {
                return try plan.rows(db, .scan(selection: nil, ordered: true))
            }
            let matches = try Self.rowids(db, matching: expression, atMost: few + 1)
            guard !matches.isEmpty else { return SearchPage(assets: []) }
            return try plan.rows(db, matches.count <= few ? .rowids(matches) : .walk(expression: expression))
        }
    }

    /// Index terms (trigrams) beginning with `prefix`, at most `limit` + 1 of them.
    static func terms(_ db: SQLiteConnection, beginning prefix: String) throws -> [String]? {
        guard let upper = SearchQuery.upperBound(ofPrefix: prefix) else { return nil }
        let statement = try db.statement("SELECT term FROM search_terms WHERE term >= ? AND term < ? LIMIT ?")
        try statement.bind([.text(prefix), .text(upper), .integer(Int64(SearchMatch.maximumTerms + 1))])
        var terms: [String] = []
        while try statement.step() { terms.append(statement.text(0) ?? "") }
        return terms
    }

    /// The rowids of up to `limit` assets matching `expression`, in no particular order.
    private static func rowids(_ db: SQLiteConnection, matching expression: String, atMost limit: Int) throws -> [Int64] {
        let statement = try db.statement("SELECT rowid FROM search_text WHERE search_text MATCH ? LIMIT ?")
        try statement.bind([.text(expression), .integer(Int64(limit))])
        var rowids: [Int64] = []
        while try statement.step() { rowids.append(statement.int64(0)) }
        return rowids
    }

    private static func assetCount(_ db: SQLiteConnection, groupKey: String?) throws -> Int {
        let statement = try db.statement("SELECT coalesce(sum(count), 0) FROM groups WHERE ?1 IS NULL OR key = ?1")
        try statement.bind([.text(groupKey)])
        return try statement.step() ? Int(statement.int64(0)) : 0
    }
}

/// A query in the index's terms: an FTS5 expression for what the index can find. Every photo
/// it finds is checked against the words after (`SearchPlan`), which also tests the words the
/// index cannot find (one character).
struct SearchMatch {
    /// The distinct trigrams of the words of three characters or more, all to be found.
    var trigrams: [String]
    /// For each word of two characters, the index terms that begin with it, one to be found.
    var alternatives: [[String]]

    /// Every word the index can find, ANDed; nil when there is none.
    var expression: String? {
        let parts = trigrams.map(SearchQuery.quoted)
            + alternatives.map { "(" + $0.map(SearchQuery.quoted).joined(separator: " OR ") + ")" }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// Most index terms a two-character word may stand for; a word that begins more (a rare
    /// thing: it takes that many different following characters) is left to the check.
    static let maximumTerms = 256

    /// Most trigrams looked up: past a few dozen, more narrow nothing down that the check does not.
    static let maximumTrigrams = 64

    /// The match for `query`; nil when it cannot match anything (a two-character word that
    /// begins no term occurs in no photo). `terms` lists the index terms beginning with a prefix.
    init?(_ query: SearchQuery, terms: (String) throws -> [String]?) throws {
        // The index keeps no positions: a word is each of its trigrams, and the check after
        // drops the photos that hold them all but not in a row.
        trigrams = []
        var seen: Set<String> = []
        for word in query.longWords {
            let scalars = Array(word.unicodeScalars)
            for start in 0...(scalars.count - 3) where trigrams.count < Self.maximumTrigrams {
                var trigram = String.UnicodeScalarView()
                trigram.append(contentsOf: scalars[start..<(start + 3)])
                let text = String(trigram)
                if seen.insert(text).inserted { trigrams.append(text) }
            }
        }
        alternatives = []
        for word in query.twoCharacterWords {
            // Every character of an indexed field but its last begins a trigram (`SearchText.fields`),
            // so the photos holding a two-character word are exactly those holding a term that begins with it.
            guard let found = try terms(word), found.count <= Self.maximumTerms else { continue }
            guard !found.isEmpty else { return nil }
            alternatives.append(found)
        }
    }
}
