import Foundation
import Testing

@testable import Varlink

@Suite("Parameters and errors")
struct CallTests {
    struct Query: Codable, Equatable {
        var group: String?
        var limit: Int?
        var ids: [String]
    }

    struct Nested: Codable {
        struct Inner: Codable { var count: Int }
        var inner: Inner
    }

    private func call(_ text: String) throws -> VarlinkCall {
        try VarlinkCall.parse(Array(text.utf8))
    }

    @Test("parameters decode, optional ones may be missing or null")
    func decodes() throws {
        let query = try call(#"{"method":"a.B","parameters":{"ids":["x"],"group":null,"extra":1}}"#)
            .parameters(Query.self)
        #expect(query == Query(group: nil, limit: nil, ids: ["x"]))
    }

    @Test("absent or null parameters decode as {}")
    func absentParameters() throws {
        #expect(throws: Never.self) { try self.call(#"{"method":"a.B"}"#).parameters(Empty.self) }
        #expect(throws: Never.self) { try self.call(#"{"method":"a.B","parameters":null}"#).parameters(Empty.self) }
        #expect(throws: VarlinkError.invalidParameter("ids")) {
            try self.call(#"{"method":"a.B"}"#).parameters(Query.self)
        }
    }

    @Test("the offending top-level key is named", arguments: [
        (#"{"ids":["x"],"limit":"ten"}"#, "limit"),
        (#"{"limit":3}"#, "ids"),
        (#"{"ids":null}"#, "ids"),
        (#"{"ids":[1]}"#, "ids"),
        (#"{"ids":[],"group":7}"#, "group"),
        (#"[1]"#, "parameters"),
    ])
    func namesTheKey(_ parameters: String, _ key: String) throws {
        let parsed = try call(#"{"method":"a.B","parameters":\#(parameters)}"#)
        #expect(throws: VarlinkError.invalidParameter(key)) { try parsed.parameters(Query.self) }
    }

    @Test("a nested failure names its top-level parameter")
    func nestedKey() throws {
        let parsed = try call(#"{"method":"a.B","parameters":{"inner":{"count":"x"}}}"#)
        #expect(throws: VarlinkError.invalidParameter("inner")) { try parsed.parameters(Nested.self) }
    }

    @Test("standard errors carry their parameters")
    func standardErrors() throws {
        let error = VarlinkError.invalidParameter("limit")
        #expect(error.name == "org.varlink.service.InvalidParameter")
        #expect(String(decoding: error.parametersJSON, as: UTF8.self) == #"{"parameter":"limit"}"#)
        #expect(error.parameters([String: String].self) == ["parameter": "limit"])
        #expect(VarlinkError.interfaceNotFound("x.Y").parameters([String: String].self) == ["interface": "x.Y"])
        #expect(VarlinkError.methodNotFound("x.Y.Z").parameters([String: String].self) == ["method": "x.Y.Z"])
        #expect(VarlinkError.methodNotImplemented("x.Y.Z").name == "org.varlink.service.MethodNotImplemented")
        #expect(VarlinkError.expectedMore().name == "org.varlink.service.ExpectedMore")
        #expect(VarlinkError.permissionDenied().name == "org.varlink.service.PermissionDenied")
        #expect(String(decoding: VarlinkError.expectedMore().parametersJSON, as: UTF8.self) == "{}")
    }

    @Test("errors with equal parameters are equal whatever the field order")
    func equality() {
        struct AB: Encodable { let a = 1; let b = "/x" }
        struct BA: Encodable {
            let b = "/x"
            let a = 1
            enum CodingKeys: String, CodingKey { case b, a }
        }
        #expect(VarlinkError("x.E", parameters: AB()) == VarlinkError("x.E", parameters: BA()))
        #expect(VarlinkError("x.E", parameters: AB()) != VarlinkError("x.E"))
        #expect(VarlinkError("x.E", parameters: [1, 2]) == VarlinkError("x.E"))
    }

    @Test("IDL method names are found, comments and types are not methods")
    func methodNames() {
        let idl = """
            # method NotThis()
            interface a.b
            type method_like (x: int)
            method   One() -> ()
              method Two(x: int) -> (y: ?int)
            # methods Three() -> ()
            error Four ()
            """
        #expect(VarlinkInterface.methodNames(in: try? VarlinkIDL(parsing: idl)) == ["One", "Two"])
        // "methods" is no keyword: the one IDL reader refuses the text rather than guess.
        #expect(VarlinkInterface.methodNames(in: try? VarlinkIDL(parsing: idl + "\nmethods Three() -> ()")) == [])
    }
}

@Suite("Strict JSON in calls")
struct StrictCallTests {
    private func parse(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        try VarlinkCall.parse(Array(text.utf8))
    }

    @Test("what JSONDecoder would forgive is refused", arguments: [
        #"{"method":"a.B",}"#,
        #"{"method":"a.B","parameters":{"ids":["x",]}}"#,
        #"{"method":"a.B","parameters":{"x":1,}}"#,
        #"{"method":"a.B","parameters":{"x":01}}"#,
        #"{"method":"a.B","parameters":{"x":+1}}"#,
        #"{"method":"a.B","parameters":{"x":.5}}"#,
        #"{"method":"a.B","parameters":{"x":1.}}"#,
        #"{"method":"a.B","parameters":{"x":NaN}}"#,
        #"{"method":"a.B","parameters":{"x":"\x"}}"#,
        #"{"method":"a.B","parameters":{"x":"\ud800"}}"#,
        #"{"method":"a.B","parameters":{"x":"\udc00\ud800"}}"#,
        "{\"method\":\"a.B\",\"parameters\":{\"x\":\"tab\there\"}}",
        "\u{FEFF}{\"method\":\"a.B\"}",
        "{\"method\":\"a.B\"}\u{0B}",
        #"{"method":"a.B"} // comment"#,
        #"{'method':"a.B"}"#,
        #"{method:"a.B"}"#,
        #"{"method":"a.B","parameters":{"x":tru}}"#,
    ])
    func refusesLenientInput(_ text: String) {
        #expect(throws: VarlinkProtocolError.invalidJSON) { try parse(text) }
    }

    @Test("a key named twice in one object is refused, at any depth and however it is escaped", arguments: [
        (#"{"method":"a.B","method":"c.D"}"#, 16),
        (#"{"method":"a.B","parameters":{},"parameters":{"x":1}}"#, 32),
        (#"{"oneway":false,"method":"a.B","oneway":true}"#, 31),
        (#"{"more":true,"method":"a.B","more":false}"#, 28),
        (#"{"upgrade":false,"method":"a.B","upgrade":true}"#, 32),
        (#"{"method":"a.B","\u006dethod":"c.D"}"#, 16),
        (#"{"method":"a.B","parameters":{"x":[{"k":1,"k":2}]}}"#, 42),
    ])
    func refusesDuplicateKeys(_ text: String, _ offset: Int) {
        #expect(throws: VarlinkProtocolError.duplicateKey(offset: offset)) { try parse(text) }
    }

    @Test("the same key in different objects, and keys that differ only in normalization, are fine")
    func distinctKeys() throws {
        // U+00E9 and e + U+0301 are canonically equivalent (Swift's String == says equal) but
        // are different keys to JSON.
        let call = try parse(#"{"method":"a.B","parameters":{"x":{"x":1},"y":[{"x":2},{"x":3}],"é":1,"é":2}}"#)
        #expect(call.method == "a.B")
        // (A Swift dictionary then folds the two spellings into one key; that is the handler's concern.)
        #expect(try call.parameters([String: JSONValue].self)["y"] == .array([.object(["x": .integer(2)]), .object(["x": .integer(3)])]))
    }

    @Test("strict JSON with every RFC 8259 form still parses")
    func acceptsStrictJSON() throws {
        let text = " \t\r\n{ \"method\" : \"a.B\" , \"parameters\" : { \"n\" : [0, -0, 1.5, -2e10, 3E+2, 4e-2, "
            + #"true, false, null, "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", [], {}] } }"# + " \n"
        let call = try parse(text)
        let values = try call.parameters([String: [JSONValue]].self)["n"]
        #expect(values?.count == 12)
        #expect(values?[9] == .string("\"\\/\u{8}\u{c}\n\r\té😀"))
    }

    @Test("nesting deeper than the limit is refused; at the limit it parses")
    func depth() throws {
        func nested(_ depth: Int) -> String {
            #"{"method":"a.B","parameters":{"x":"# + String(repeating: "[", count: depth - 2)
                + String(repeating: "]", count: depth - 2) + "}}"
        }
        #expect(throws: Never.self) { try parse(nested(StrictJSON.maximumDepth)) }
        #expect(throws: VarlinkProtocolError.nestedTooDeep(limit: StrictJSON.maximumDepth)) {
            try parse(nested(StrictJSON.maximumDepth + 1))
        }
    }
}
