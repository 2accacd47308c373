import Testing
@testable import Varlink

/// The run-time check of debug builds: messages against their interface's IDL, as sd-varlink does.
@Suite struct IDLCheckTests {
    static let idl = """
        interface org.example.Shop
        type Item (name: string, count: int, price: ?float, size: ?(small, large), tags: []string, extra: ?[string]int)
        method Buy(item: Item, note: ?string) -> (ok: bool, items: []Item)
        error OutOfStock (name: string)
        """

    private func mismatch(_ json: String, unknownFieldsAllowed: Bool = false) throws -> String? {
        let idl = try VarlinkIDL(parsing: Self.idl)
        let method = try #require(idl.method("Buy"))
        return VarlinkIDLCheck(idl).mismatch(parametersJSON: Array(json.utf8), method.input,
                                             unknownFieldsAllowed: unknownFieldsAllowed)
    }

    @Test func aMatchingMessagePasses() throws {
        #expect(try mismatch(#"{"item":{"name":"a","count":2,"price":1,"size":"small","tags":["x"],"extra":{"k":1}}}"#) == nil)
        #expect(try mismatch(#"{"item":{"name":"a","count":2.0,"tags":[],"price":null},"note":null}"#) == nil)
    }

    @Test(arguments: [
        (#"{}"#, "item: missing"),
        (#"{"item":{"name":"a","count":2}}"#, "item.tags: missing"),
        (#"{"item":{"name":1,"count":2,"tags":[]}}"#, "item.name: expected string, found an integer"),
        (#"{"item":{"name":"a","count":2.5,"tags":[]}}"#, "item.count: expected int, found a number"),
        (#"{"item":{"name":"a","count":2,"tags":[1]}}"#, "item.tags[0]: expected string, found an integer"),
        (#"{"item":{"name":"a","count":2,"tags":[],"size":"huge"}}"#, "item.size: \"huge\" is none of small, large"),
        (#"{"item":{"name":"a","count":2,"tags":[],"extra":{"k":"v"}}}"#, "item.extra[\"k\"]: expected int, found a string"),
        (#"{"item":{"name":"a","count":2,"tags":[],"colour":"red"}}"#, "item.colour: not in the IDL"),
        (#"{"item":{"name":"a","count":2,"tags":[]},"more":1}"#, "more: not in the IDL"),
    ])
    func aMismatchIsNamedByItsPath(json: String, problem: String) throws {
        #expect(try mismatch(json) == problem)
    }

    @Test func unknownFieldsPassWhereAReaderMustAcceptThem() throws {
        #expect(try mismatch(#"{"item":{"name":"a","count":2,"tags":[],"colour":"red"},"more":1}"#,
                             unknownFieldsAllowed: true) == nil)
        #expect(VarlinkIDLCheck.field(of: "item.tags[0]: expected string") == "item")
        #expect(VarlinkIDLCheck.field(of: "note: missing") == "note")
    }

    @Test func repliesAndErrorsAreCheckedAgainstTheMethodAndTheInterface() throws {
        let interface = VarlinkInterface(name: "org.example.Shop", description: Self.idl) { _, _, _ in }
        let service = VarlinkInterface(name: "org.varlink.service", description: VarlinkRegistry.serviceIDL) { _, _, _ in }
        let call = try VarlinkCall.parse(Array(#"{"method":"org.example.Shop.Buy","parameters":{}}"#.utf8))
        let contract = try #require(CallContract(call, interface: interface, service: service))
        #expect(contract.replyMismatch(Array(#"{"ok":true,"items":[]}"#.utf8)) == nil)
        #expect(contract.replyMismatch(Array(#"{"ok":true,"items":[],"extra":1}"#.utf8))
                == "reply of org.example.Shop.Buy: extra: not in the IDL")
        #expect(contract.errorMismatch(VarlinkError("org.example.Shop.OutOfStock", parameters: ["name": "a"])) == nil)
        #expect(contract.errorMismatch(VarlinkError("org.example.Shop.OutOfStock"))
                == "error org.example.Shop.OutOfStock of org.example.Shop.Buy: name: missing")
        #expect(contract.errorMismatch(VarlinkError("org.example.Shop.Closed"))
                == "org.example.Shop.Buy answered org.example.Shop.Closed, which org.example.Shop does not declare")
        #expect(contract.errorMismatch(.invalidParameter("item")) == nil)
        #expect(contract.errorMismatch(.internalError()) == nil)
        #expect(contract.errorMismatch(VarlinkError("org.other.Error")) == nil)
    }
}
