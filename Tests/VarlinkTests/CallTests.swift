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
            methods Three() -> ()
            error Four ()
            """
        #expect(VarlinkInterface.methodNames(in: idl) == ["One", "Two"])
    }
}
