import Varlink

/// The reference certification client's run (Start, Test01 … Test11, End) on VarlinkClient, the
/// one client (blocking, without SwiftNIO): CertificationTests runs it against Python's server.
///
/// Like the reference client, each call passes on the previous reply; unlike it, every reply is
/// first compared with the reference server's value, so a server that answers wrongly fails
/// here at the step that went wrong rather than somewhere later.
struct CertificationClient {
    let client: VarlinkClient

    /// Runs the whole sequence, printing each step; throws at the first wrong answer.
    func run() async throws {
        let start = try await self.call("Start", Empty(), returning: StartReply.self)
        let id = start.clientID
        try Self.expect(!id.isEmpty, "Start", "an empty client_id")

        let bool = try await self.step("Test01", id, Empty(), wants: BoolValue(bool: true))
        let int = try await self.step("Test02", id, bool, wants: IntValue(int: 1))
        let float = try await self.step("Test03", id, int, wants: FloatValue(float: 1.0))
        let string = try await self.step("Test04", id, float, wants: StringValue(string: "ping"))
        let scalars = try await self.step("Test05", id, string, wants: Reference.scalars)
        let structure = try await self.step("Test06", id, scalars, wants: StructValue(struct: Reference.scalars))
        let map = try await self.step("Test07", id, structure, wants: MapValue(map: Reference.map))
        let set = try await self.step("Test08", id, map, wants: SetValue(set: Reference.set))
        let myType = try await self.step("Test09", id, set, wants: MyTypeValue(mytype: Reference.myType))

        var replies: [String] = []
        let stream = self.client.stream(Self.method("Test10"), WithClientID(clientID: id, value: myType), returning: StringValue.self)
        for try await reply in stream {
            say("Test10: \(reply.string)")
            replies.append(reply.string)
        }
        try Self.expect(replies == Reference.moreReplies, "Test10", "replies \(replies)")

        try await self.client.callOneway(Self.method("Test11"), WithClientID(clientID: id, value: LastMoreReplies(lastMoreReplies: replies)))
        say("Test11: sent oneway")
        // End is answered only after Test11 ran: a server handles one connection's calls in order.
        _ = try await self.step("End", id, Empty(), wants: AllOK(allOK: true))
        say("Certification passed")
    }

    /// Calls `method` with client_id next to `parameters`' fields and checks the reply is `wants`.
    private func step<P: Encodable & Sendable, R: Decodable & Sendable & Equatable>(
        _ method: String, _ clientID: String, _ parameters: P, wants: R
    ) async throws -> R {
        let reply = try await self.call(method, WithClientID(clientID: clientID, value: parameters), returning: R.self)
        try Self.expect(reply == wants, method, "\(reply), wanted \(wants)")
        return reply
    }

    /// One plain call, printed the way the reference client prints it.
    private func call<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) async throws -> R {
        let reply = try await self.client.call(Self.method(method), parameters, returning: R.self)
        say("\(method): \(reply)")
        return reply
    }

    /// The qualified name of one of the interface's methods.
    private static func method(_ name: String) -> String {
        "\(CertificationServer.interfaceName).\(name)"
    }

    /// Throws a CertificationFailure naming `method` unless `condition` holds.
    private static func expect(_ condition: Bool, _ method: String, _ got: @autoclosure () -> String) throws {
        guard condition else { throw CertificationFailure(method: method, got: got()) }
    }

    /// What the reference server answers, as this client's types.
    enum Reference {
        static let scalars = Scalars(bool: false, int: 2, float: .pi, string: "a lot of string")
        static let map = ["foo": "Foo", "bar": "Bar"]
        static let set = ["one": Empty(), "two": Empty(), "three": Empty()]
        static let moreReplies = (1...10).map { "Reply number \($0)" }
        static let myType = MyType(
            object: ["method": "org.varlink.certification.Test09", "parameters": ["map": ["foo": "Foo", "bar": "Bar"]]],
            enum: .two,
            struct: .init(first: 1, second: "2"),
            array: ["one", "two", "three"],
            dictionary: map,
            stringset: set,
            nullable: nil,
            nullableArrayStruct: nil,
            interface: .init(foo: [nil, ["foo": .foo, "bar": .bar], nil, ["one": .foo, "two": .bar]], anon: .init(foo: true, bar: false))
        )
    }
}

/// A reply that is not the reference's; names the step.
struct CertificationFailure: Error, CustomStringConvertible {
    let method: String
    let got: String
    var description: String { "\(self.method): unexpected answer: \(self.got)" }
}

/// A call's parameters: client_id next to the fields `value` encodes.
struct WithClientID<Value: Encodable & Sendable>: Encodable, Sendable {
    let clientID: String
    let value: Value

    private enum Key: String, CodingKey {
        case clientID = "client_id"
    }

    /// Both write into the same JSON object: the value's fields become the call's other parameters.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(self.clientID, forKey: .clientID)
        try self.value.encode(to: encoder)
    }
}

// The interface's parameter and reply records. Replies are passed on as the next call's
// parameters, so one type serves both.

/// `()`, and the value type of a `[string]()` set.
struct Empty: Codable, Sendable, Equatable {}
/// Start's reply.
struct StartReply: Decodable, Sendable {
    let clientID: String
    private enum CodingKeys: String, CodingKey { case clientID = "client_id" }
}
/// `(bool: bool)`.
struct BoolValue: Codable, Sendable, Equatable { var bool: Bool }
/// `(int: int)`.
struct IntValue: Codable, Sendable, Equatable { var int: Int }
/// `(float: float)`.
struct FloatValue: Codable, Sendable, Equatable { var float: Double }
/// `(string: string)`.
struct StringValue: Codable, Sendable, Equatable { var string: String }
/// `(bool: bool, int: int, float: float, string: string)`.
struct Scalars: Codable, Sendable, Equatable { var bool: Bool; var int: Int; var float: Double; var string: String }
/// `(struct: (bool, int, float, string))`.
struct StructValue: Codable, Sendable, Equatable { var `struct`: Scalars }
/// `(map: [string]string)`.
struct MapValue: Codable, Sendable, Equatable { var map: [String: String] }
/// `(set: [string]())`.
struct SetValue: Codable, Sendable, Equatable { var set: [String: Empty] }
/// `(mytype: MyType)`.
struct MyTypeValue: Codable, Sendable, Equatable { var mytype: MyType }
/// Test11's `(last_more_replies: []string)`.
struct LastMoreReplies: Encodable, Sendable {
    var lastMoreReplies: [String]
    private enum CodingKeys: String, CodingKey { case lastMoreReplies = "last_more_replies" }
}
/// End's `(all_ok: bool)`.
struct AllOK: Decodable, Sendable, Equatable {
    var allOK: Bool
    private enum CodingKeys: String, CodingKey { case allOK = "all_ok" }
}

/// The interface's `MyType`, every kind of varlink type in one record.
struct MyType: Codable, Sendable, Equatable {
    /// `(one, two, three)`.
    enum Choice: String, Codable, Sendable { case one, two, three }
    /// `(foo, bar, baz)`.
    enum Word: String, Codable, Sendable { case foo, bar, baz }
    /// `(first: int, second: string)`.
    struct Pair: Codable, Sendable, Equatable { var first: Int; var second: String }
    /// `(foo: bool, bar: bool)`.
    struct Anon: Codable, Sendable, Equatable { var foo: Bool; var bar: Bool }
    /// The type `Interface`: `(foo: ?[]?[string](foo, bar, baz), anon: (foo: bool, bar: bool))`.
    struct Interface: Codable, Sendable, Equatable { var foo: [[String: Word]?]?; var anon: Anon }

    var object: JSON
    var `enum`: Choice
    var `struct`: Pair
    var array: [String]
    var dictionary: [String: String]
    var stringset: [String: Empty]
    var nullable: String?
    var nullableArrayStruct: [Pair]?
    var interface: Interface

    private enum CodingKeys: String, CodingKey {
        case object, `enum`, `struct`, array, dictionary, stringset, nullable, interface
        case nullableArrayStruct = "nullable_array_struct"
    }
}
