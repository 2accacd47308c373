import Testing
@testable import TOML

/// The TOML subset photod.toml uses: what it reads, and the line and column of what it refuses.
@Suite struct TOMLParserTests {
    private func parse(_ text: String) throws -> TOMLTable { try TOMLParser.parse(text) }

    private func problem(_ text: String) -> TOMLError? {
        do {
            _ = try TOMLParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func keysValuesTablesAndComments() throws {
        let table = try parse("""
            # a comment
            name = "photod" # after a value
            count = 42
            on = true
            off = false
            list = ["a", 'b', ]

            [groups]
            fallback = "Other"
            nested = [[1, 2], [], ["x"]]
            """)
        #expect(table.keys == ["name", "count", "on", "off", "list", "groups"])
        #expect(table["name"] == .string("photod"))
        #expect(table["count"] == .integer(42))
        #expect(table["on"]?.bool == true && table["off"]?.bool == false)
        #expect(table["list"] == .array([.string("a"), .string("b")]))
        let groups = try #require(table["groups"]?.table)
        #expect(groups["fallback"]?.string == "Other")
        #expect(groups["nested"] == .array([.array([.integer(1), .integer(2)]), .array([]), .array([.string("x")])]))
        #expect(table["missing"] == nil)
    }

    @Test func arraysMaySpanLinesWithCommentsAndCRLF() throws {
        let table = try parse("boilerplate = [\r\n  \"A\", # first\r\n\r\n  \"B\"\r\n]\r\nx = 1\r\n")
        #expect(table["boilerplate"] == .array([.string("A"), .string("B")]))
        #expect(table["x"] == .integer(1))
    }

    @Test func stringEscapes() throws {
        let table = try parse(#"""
            basic = "tab\there \"q\" back\\slash \u00E9 \U0001F600 \b\f\n\r"
            literal = 'C:\Users\no escapes "here"'
            empty = ""
            unicode = "Café 日本"
            """#)
        #expect(table["basic"]?.string == "tab\there \"q\" back\\slash é 😀 \u{8}\u{C}\n\r")
        #expect(table["literal"]?.string == #"C:\Users\no escapes "here""#)
        #expect(table["empty"]?.string == "")
        #expect(table["unicode"]?.string == "Café 日本")
    }

    @Test func integersInEveryFormTOMLHas() throws {
        let table = try parse("""
            a = 0
            b = +17
            c = -5
            d = 1_000_000
            e = 0xDEAD_beef
            f = 0o755
            g = 0b1010
            max = 9223372036854775807
            min = -9223372036854775808
            """)
        #expect(table["a"]?.int == 0 && table["b"]?.int == 17 && table["c"]?.int == -5)
        #expect(table["d"]?.int == 1_000_000 && table["e"]?.int == 0xDEADBEEF)
        #expect(table["f"]?.int == 0o755 && table["g"]?.int == 10)
        #expect(table["max"]?.int == Int.max && table["min"]?.int == Int.min)
    }

    @Test func badIntegersAreRefused() {
        for text in ["x = 9223372036854775808", "x = -9223372036854775809", "x = 0xFFFFFFFFFFFFFFFFF",
                     "x = 01", "x = 1__0", "x = _1", "x = 1_", "x = 0x", "x = +0x1", "x = 0b2", "x = 0X1", "x = --1"] {
            #expect(problem(text) != nil, "\(text)")
        }
        #expect(problem("x = 9223372036854775808")?.problem.contains("64-bit") == true)
    }

    @Test func keysBareQuotedAndDotted() throws {
        let table = try parse("""
            bare-key_1 = 1
            "quoted key" = 2
            'literal.key' = 3
            "" = 4
            a.b.c = 5
            a . b . d = 6
            [t . "u v"]
            w = 7
            """)
        #expect(table["bare-key_1"]?.int == 1 && table["quoted key"]?.int == 2)
        #expect(table["literal.key"]?.int == 3 && table[""]?.int == 4)
        let b = try #require(table["a"]?.table?["b"]?.table)
        #expect(b["c"]?.int == 5 && b["d"]?.int == 6)
        #expect(table["t"]?.table?["u v"]?.table?["w"]?.int == 7)
    }

    @Test func aKeyOrTableIsDefinedOnce() {
        let twice = [
            "a = 1\na = 2", "a = 1\n\"a\" = 2", "[t]\n[t]", "[t]\nx = 1\n[t]", "a = 1\n[a]", "a.b = 1\n[a]",
            "a.b = 1\na.b = 2", "a = 1\na.b = 2", "[t]\nx.y = 1\n[t.x]", "[t.x]\n[t]\nx.y = 1",
            "a.b = 1\n[c]\n[a.b]", "x = [1]\n[x]",
        ]
        for text in twice {
            #expect(problem(text) != nil, "\(text)")
        }
        // A table a header only passed through may be opened later, once; dotted keys of one
        // section go on adding to the tables they made.
        #expect(problem("[a.b]\nx = 1\n[a]\ny = 2") == nil)
        #expect(problem("a.b = 1\na.c = 2\n[a.d]\nz = 3") == nil)
    }

    @Test func errorsSayTheLineAndColumn() throws {
        let equals = try #require(problem("log_level = \"info\"\nmax_connections = = 3\n"))
        #expect(equals.line == 2 && equals.column == 19)
        #expect(equals.description == "line 2, column 19: expected a value (a \"string\", an integer, true, false "
                + "or an [array]), found '='")
        // Columns count characters, not bytes.
        let accented = try #require(problem("\"é\" = 1\nx = \"Café\" y"))
        #expect(accented.line == 2 && accented.column == 12)
        let unclosed = try #require(problem("list = [\n  \"a\",\n  \"b\"\n"))
        #expect(unclosed.line == 4 && unclosed.problem.contains("end of the file"))
        let inArray = try #require(problem("list = [\n  \"a\"\n  \"b\"]"))
        #expect(inArray.line == 3 && inArray.column == 3 && inArray.problem.contains("expected ',' or ']'"))
    }

    @Test func whatTheSubsetLeavesOutIsNamed() throws {
        let cases: [(String, String)] = [
            ("x = 1.5", "floats"), ("x = 1e3", "floats"), ("x = -inf", "floats"), ("x = nan", "floats"),
            ("x = 1979-05-27", "dates"), ("x = 07:32:00", "dates"), ("x = 1979-05-27T07:32:00Z", "dates"),
            ("x = { a = 1 }", "inline tables"), ("[[x]]", "arrays of tables"),
            ("x = \"\"\"\nmulti\n\"\"\"", "multi-line"), ("x = '''a'''", "multi-line"),
        ]
        for (text, named) in cases {
            let error = try #require(problem(text), "\(text)")
            #expect(error.problem.contains(named), "\(text): \(error)")
            #expect(error.line == 1)
        }
    }

    @Test func malformedTextIsRefused() {
        let bad = [
            "x", "x =", "= 1", "x = 1 2", "x = \"open", "x = 'open", "x = \"a\nb\"", "x = \"\\q\"", "x = \"\\u12\"",
            "x = \"\\uD800\"", "x = \"\\U00110000\"", "[t", "[]", "[t] x = 1", "x = [1,,2]", "x = [,]", "x = [1 2]",
            "x = tru", "x = TRUE", "x = \"a\u{1}\"", "x = 1 # bell \u{7}", "x = 1\ry = 2", "x = 'a\u{7F}'",
            "a..b = 1", ".a = 1", "a. = 1", "x = 1 ]", "[a.]",
        ]
        for text in bad {
            #expect(problem(text) != nil, "\(text.debugDescription)")
        }
    }

    @Test func aByteOrderMarkAndEmptyTextAreFine() throws {
        #expect(try parse("\u{FEFF}x = 1")["x"]?.int == 1)
        #expect(try parse("").keys.isEmpty)
        #expect(try parse("\n# only a comment\n\n").keys.isEmpty)
        #expect(try parse("x = 1 # no line end at the end")["x"]?.int == 1)
    }

    @Test func typeNamesAreTheOnesConfigErrorsUse() throws {
        let table = try parse("s = \"\"\ni = 1\nb = true\na = []\n[t]")
        #expect(["s", "i", "b", "a", "t"].compactMap { table[$0]?.kind } == ["string", "int", "bool", "array", "table"])
    }
}
