/// Parses the TOML subset photod's config uses, strictly: [table] headers, key = value lines
/// (keys bare, quoted or dotted), strings with escapes, integers, booleans and arrays, comments.
/// Everything else TOML has (floats, dates, inline tables, [[arrays of tables]], multi-line
/// strings) is an error naming the line and column, as is anything that is not TOML at all.
public enum TOMLParser {
    /// The root table of `text`.
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var scanner = TOMLScanner(text)
        let root = TableNode()
        var current = root
        var section = 0
        while true {
            scanner.skipSpaces()
            try scanner.skipComment()
            if scanner.skipLineEnd() { continue }
            if scanner.atEnd { break }
            if scanner.current == .openBracket {
                section += 1
                current = try header(&scanner, in: root)
            } else {
                try keyValue(&scanner, in: current, section: section)
            }
            scanner.skipSpaces()
            try scanner.skipComment()
            guard scanner.skipLineEnd() || scanner.atEnd else {
                throw scanner.error("expected the end of the line, found \(scanner.found())")
            }
        }
        return root.table()
    }

    /// `[a.b]`: the table it opens, created if need be.
    private static func header(_ scanner: inout TOMLScanner, in root: TableNode) throws(TOMLError) -> TableNode {
        scanner.advance()
        if scanner.current == .openBracket {
            throw scanner.error("arrays of tables ([[…]]) are not supported here")
        }
        let start = scanner
        let path = try scanner.key()
        guard scanner.current == .closeBracket else {
            throw scanner.error("expected ']' to end the table header, found \(scanner.found())")
        }
        scanner.advance()
        var table = root
        for (depth, part) in path.enumerated() {
            switch table.entries[part] {
            case nil:
                let created = TableNode()
                table.add(part, .table(created))
                table = created
            case .table(let existing):
                table = existing
            case .value:
                throw start.error("\(dotted(path.prefix(depth + 1))) already has a value; it cannot also be a table")
            }
        }
        // Tables that headers only passed through may be opened once; any other table is
        // already defined (by its own header, or by dotted keys).
        guard !table.defined else { throw start.error("the table [\(dotted(path))] is defined twice") }
        table.defined = true
        return table
    }

    /// `key = value` in `table`; a dotted key makes the tables on its way (they belong to this
    /// section: no later header or section may add to them).
    private static func keyValue(_ scanner: inout TOMLScanner, in table: TableNode, section: Int) throws(TOMLError) {
        let start = scanner
        let path = try scanner.key()
        guard scanner.current == .equals else {
            throw scanner.error("expected '=' after the key, found \(scanner.found())")
        }
        scanner.advance()
        scanner.skipSpaces()
        let value = try scanner.value()
        var parent = table
        for (depth, part) in path.dropLast().enumerated() {
            switch parent.entries[part] {
            case nil:
                let created = TableNode()
                created.defined = true
                created.dottedSection = section
                parent.add(part, .table(created))
                parent = created
            case .table(let existing) where existing.dottedSection == section:
                parent = existing
            case .table:
                throw start.error("the table \(dotted(path.prefix(depth + 1))) is defined elsewhere; "
                                  + "a dotted key cannot add to it")
            case .value:
                throw start.error("\(dotted(path.prefix(depth + 1))) already has a value; it cannot also be a table")
            }
        }
        // A key of the path has been checked above; dropLast leaves at least this one.
        guard let last = path.last, parent.entries[last] == nil else {
            throw start.error("the key \(dotted(path)) is defined twice")
        }
        parent.add(last, .value(value))
    }

    private static func dotted<Parts: Collection<String>>(_ path: Parts) -> String {
        path.map { !$0.isEmpty && $0.utf8.allSatisfy(TOMLScanner.isBare) ? ShownText.of($0) : "\"\(ShownText.of($0))\"" }.joined(separator: ".")
    }
}

/// A table while the text is read: its entries, and how it came to be, for the rule that a
/// table is defined once.
private final class TableNode {
    enum Entry {
        case value(TOMLValue)
        case table(TableNode)
    }

    private(set) var order: [String] = []
    private(set) var entries: [String: Entry] = [:]
    /// Opened by its header or made by a dotted key (not only passed through by a header).
    var defined = false
    /// The section (0 before the first header) whose dotted keys made it.
    var dottedSection: Int?

    func add(_ key: String, _ entry: Entry) {
        order.append(key)
        entries[key] = entry
    }

    /// The finished table; a header and a dotted key under it nest it at most twice maxKeyParts deep.
    func table() -> TOMLTable {
        var table = TOMLTable()
        for key in order {
            switch entries[key] {
            case .value(let value)?: table.add(key, value)
            case .table(let node)?: table.add(key, .table(node.table()))
            case nil: break
            }
        }
        return table
    }
}
