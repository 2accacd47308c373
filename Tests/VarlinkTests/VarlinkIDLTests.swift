import Testing
@testable import Varlink

/// The interface-description parser that the method tables are checked against.
@Suite struct VarlinkIDLTests {
    static let sample = """
        # A leading comment.
        interface org.example.Shop

        type Colour (red, green, blue)
        # A struct with every kind of field.
        type Item (
          name: string,  # trailing comment
          count: int,
          price: ?float,
          tags: []string,
          extra: [string]object,
          colour: Colour,
          size: (small, large),
          box: (width: int, height: ?int)
        )
        method Buy(item: Item, note: ?string) -> (ok: bool)
        method Empty() -> ()
        error OutOfStock (name: string)
        """

    @Test func everyKindOfTypeParses() throws {
        let idl = try VarlinkIDL(parsing: Self.sample)
        #expect(idl.name == "org.example.Shop")
        #expect(idl.types["Colour"] == .enumeration(["red", "green", "blue"]))
        guard case .structure(let fields) = idl.types["Item"] else {
            Issue.record("Item is not a struct")
            return
        }
        #expect(fields.map(\.name) == ["name", "count", "price", "tags", "extra", "colour", "size", "box"])
        #expect(fields[2].type == .optional(.float))
        #expect(fields[3].type == .array(.string))
        #expect(fields[4].type == .map(.object))
        #expect(fields[5].type == .named("Colour"))
        #expect(fields[6].type == .enumeration(["small", "large"]))
        #expect(fields[7].type == .structure([.init(name: "width", type: .int), .init(name: "height", type: .optional(.int))]))
        #expect(idl.methods.map(\.name) == ["Buy", "Empty"])
        #expect(idl.method("Buy")?.input.map(\.name) == ["item", "note"])
        #expect(idl.method("Buy")?.output == [.init(name: "ok", type: .bool)])
        #expect(idl.method("Empty")?.input == [])
        #expect(idl.errors["OutOfStock"] == [.init(name: "name", type: .string)])
    }

    @Test(arguments: [
        ("interface org.example.A\nmethod M() -> ()\nmethod M() -> ()", 3, "method M is defined twice"),
        ("interface org.example.A\nmethod M(a: int, a: int) -> ()", 2, "field a appears twice"),
        ("interface org.example.A\n\nmethod M(a: integer) -> ()", 3, "unknown type integer"),
        ("interface org.example.A\nmethod M() (a: int)", 2, "expected \"->\""),
        ("interface org.example.A\nfunction M() -> ()", 2, "expected type, method or error, found \"function\""),
        ("interface example\nmethod M() -> ()", 1, "expected an interface name like org.example.Name, found \"example\""),
        ("interface org.example.A\ntype T (a: int", 2, "expected \")\""),
        // Lines that end in CR LF are counted as lines (a Character parser saw one "\r\n" grapheme).
        ("interface org.example.A\r\n\r\nmethod M(a: integer) -> ()", 3, "unknown type integer"),
        // Names are ASCII, as varlink's grammar says: a letter outside it is not a name.
        ("interface org.example.A\nmethod Kauf(größe: int) -> ()", 2, "expected \":\""),
    ])
    func badDescriptionsAreRefusedNamingTheLine(text: String, line: Int, reason: String) {
        #expect(throws: VarlinkIDLError(line: line, reason: reason)) { try VarlinkIDL(parsing: text) }
    }

    @Test func aCommentAfterCRLFLinesDocumentsWhatFollowsAndKeepsItsUTF8() throws {
        let idl = try VarlinkIDL(parsing: "interface org.example.A\r\n\r\n# Größe × Breite…\r\nmethod M() -> ()\r\n")
        #expect(idl.members.first?.doc == ["Größe × Breite…"])
    }
}
