// Shared by the `toml` fuzz target (fuzz/TOMLFuzzer.swift, built by fuzz/run with -D PHOTOD_FUZZ
// into one module with Sources/TOML) and TOMLHostileTests, so a saved fuzz input is checked by
// exactly the invariants that flagged it. Standard library and the TOML module only.
#if !PHOTOD_FUZZ
@testable import TOML
#endif

/// The invariants of the TOML parser on any input.
enum TOMLFuzz {
    /// What is wrong with the parser's answer to `bytes` (read as UTF-8, as the config file
    /// is); empty when nothing is. A table must survive being written back and read again; an
    /// error must point inside the text.
    static func violations(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            let lines = text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let lineLength = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .dropFirst(max(0, error.line - 1)).first.map { String(decoding: $0, as: UTF8.self).unicodeScalars.count } ?? 0
            var problems: [String] = []
            if !(1...lines).contains(error.line) { problems.append("error on line \(error.line) of \(lines): \(error)") }
            if !(1...lineLength + 1).contains(error.column) {
                problems.append("error in column \(error.column) of a line of \(lineLength): \(error)")
            }
            if error.problem.isEmpty { problems.append("an error that says nothing") }
            return problems
        }
        guard TOMLWriter.depth(of: table) <= TOMLScanner.maxKeyParts else { return [] }
        let written = TOMLWriter.text(of: table)
        do {
            let again = try TOMLParser.parse(written)
            return again == table ? [] : ["the table changed when written back and read again:\n\(written)"]
        } catch {
            return ["the parser refuses its own table written back (\(error)):\n\(written)"]
        }
    }
}

/// Writes a table as TOML text, every table under a header of its own.
enum TOMLWriter {
    /// `table` as text the parser reads back to the same table.
    static func text(of table: TOMLTable) -> String {
        var text = ""
        write(table, path: [], into: &text)
        return text
    }

    /// How deeply tables nest in `table` (a header can name at most maxKeyParts of them).
    static func depth(of table: TOMLTable) -> Int {
        table.keys.compactMap { table[$0]?.table }.map { 1 + depth(of: $0) }.max() ?? 0
    }

    private static func write(_ table: TOMLTable, path: [String], into text: inout String) {
        if !path.isEmpty { text += "[" + path.map(key).joined(separator: ".") + "]\n" }
        for name in table.keys {
            guard let value = table[name], value.table == nil else { continue }
            text += key(name) + " = " + self.value(value) + "\n"
        }
        for name in table.keys {
            if let nested = table[name]?.table { write(nested, path: path + [name], into: &text) }
        }
    }

    static func key(_ name: String) -> String {
        !name.isEmpty && name.utf8.allSatisfy(TOMLScanner.isBare) ? name : quoted(name)
    }

    static func value(_ value: TOMLValue) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .integer(let integer): String(integer)
        case .boolean(let boolean): String(boolean)
        case .array(let elements): "[" + elements.map(self.value).joined(separator: ", ") + "]"
        case .table: "{}"
        }
    }

    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
