import Testing
import VarlinkCodegen

/// What the generator writes for each kind of IDL member, and what it refuses.
@Suite struct CodegenRulesTests {
    static let idl = """
        interface org.example.Shop

        # Something to sell.
        # @limit name 10
        type Item (
          # What it is called.
          name: string,
          size: ?(small, large),
          tags: []string
        )

        # @limit note 5
        method Buy(item: Item, note: ?string) -> (ok: bool)
        method Ping() -> ()
        error OutOfStock (name: string)
        """

    private func generate(_ idl: String, names: String = "") throws -> String {
        try #require(try Codegen.generate([.init(fileName: "org.example.Shop.varlink", text: idl)], names: names).first).1
    }

    @Test func structsEnumsMethodsAndErrorsAreNamedByTheRules() throws {
        let swift = try generate(Self.idl)
        for declaration in [
            "public enum ShopInterface {", "public static let outOfStock = \"org.example.Shop.OutOfStock\"",
            "public struct Item: Codable, Sendable, Equatable, JSONReadable, JSONWritable, ByteLimited {",
            "public enum ItemSize: String, Codable, Sendable, CaseIterable, JSONReadable, JSONWritable {",
            "public struct BuyParameters: Codable, Sendable, Equatable, JSONReadable, JSONWritable, ByteLimited {", "public struct BuyReply:",
            "public struct NoParameters:", "public struct PingReply:", "public struct OutOfStockError:",
            "public init(name: String, size: ItemSize? = nil, tags: [String] = []) {",
            "ByteLimit(\"name\", atMost: MaximumBytes.name) { [$0.name] },",
            "ByteLimit(\"note\", atMost: MaximumBytes.note) { $0.note.map { [$0] } ?? [] },",
            "/// Something to sell.", "    /// What it is called.",
            "            case \"size\": try json.member(&foundSize, \"size\")",
            "        self.name = try json.required(foundName, \"name\")", "        self.size = foundSize ?? nil",
            "        try json.member(\"name\", self.name)\n        try json.memberIfPresent(\"size\", self.size)\n        try json.member(\"tags\", self.tags)",
        ] {
            #expect(swift.contains(declaration), "\(declaration)")
        }
        #expect(!swift.contains("/// @limit"))
    }

    @Test func theNamesFileRenamesAndSharesTypes() throws {
        let swift = try generate(Self.idl, names: """
            org.example.Shop.Item.size   Size   # a comment
            org.example.Shop.Ping.out    NoParameters
            """)
        #expect(swift.contains("public enum Size: String"))
        #expect(!swift.contains("PingReply"))
        #expect(swift.components(separatedBy: "public struct NoParameters").count == 2)
    }

    @Test(arguments: [
        ("org.example.Shop.Nothing X", "names file: no such IDL path: org.example.Shop.Nothing"),
        ("org.example.Shop.Buy.out Item", "org.example.Shop.Buy.out: the Swift name Item is already given to different fields"),
        ("a", "names file, line 1: expected one \"path SwiftName\", each path once"),
    ])
    func namesThatDoNotFitAreRefused(names: String, reason: String) {
        #expect(throws: CodegenError(reason)) { try generate(Self.idl, names: names) }
    }

    @Test func aLimitOnAFieldThatHoldsNoStringIsRefused() {
        let idl = "interface org.example.Shop\n# @limit count 3\nmethod M(count: int) -> ()"
        #expect(throws: CodegenError("org.example.Shop.M.in: @limit count names no string field")) { try generate(idl) }
    }
}
