import Synchronization
import Varlink

/// The reference certification service (`varlink.tests.test_certification`), served by VarlinkServer.
///
/// A client runs Start, Test01 … Test11, End in that order under the client id Start gave it.
/// Every call must carry exactly what the reference client sends, which is the previous step's
/// reply, with exactly the reference's flags (Test10 `more`, Test11 `oneway`). A deviation is
/// answered with CertificationError and the client id is forgotten, so a broken run can never
/// reach End's `all_ok`; for the oneway Test11 that is how its failure still reaches the client.
final class CertificationServer: Sendable {
    /// The certified interface's name.
    static let interfaceName = "org.varlink.certification"
    /// The interface text, served byte for byte as the reference ships it.
    static let idl = String(decoding: PackageResources.org_varlink_certification_varlink, as: UTF8.self)

    /// How a step must be called.
    enum Mode: Sendable, Equatable {
        case plain, more, oneway
    }

    /// One method after Start: what it must receive besides client_id, how, what it answers, and
    /// which method the client must call next (nil: the run is over).
    struct Step: Sendable {
        let method: String
        let parameters: JSON
        let mode: Mode
        let replies: [JSON]
        let next: String?
    }

    /// The reference's values; each step's parameters are the previous step's reply.
    enum Reference {
        static let scalars: JSON = ["bool": false, "int": 2, "float": .double(.pi), "string": "a lot of string"]
        static let map: JSON = ["foo": "Foo", "bar": "Bar"]
        static let set: JSON = ["one": [:], "two": [:], "three": [:]]
        static let moreReplies: [String] = (1...10).map { "Reply number \($0)" }
        static let myType: JSON = [
            "object": ["method": "org.varlink.certification.Test09", "parameters": ["map": map]],
            "enum": "two",
            "struct": ["first": 1, "second": "2"],
            "array": ["one", "two", "three"],
            "dictionary": map,
            "stringset": set,
            "nullable": nil,
            "nullable_array_struct": nil,
            "interface": [
                "foo": [nil, ["foo": "foo", "bar": "bar"], nil, ["one": "foo", "two": "bar"]],
                "anon": ["foo": true, "bar": false],
            ],
        ]
    }

    /// The sequence after Start, in order.
    static let steps: [Step] = [
        Step(method: "Test01", parameters: [:], mode: .plain, replies: [["bool": true]], next: "Test02"),
        Step(method: "Test02", parameters: ["bool": true], mode: .plain, replies: [["int": 1]], next: "Test03"),
        Step(method: "Test03", parameters: ["int": 1], mode: .plain, replies: [["float": 1.0]], next: "Test04"),
        Step(method: "Test04", parameters: ["float": 1.0], mode: .plain, replies: [["string": "ping"]], next: "Test05"),
        Step(method: "Test05", parameters: ["string": "ping"], mode: .plain, replies: [Reference.scalars], next: "Test06"),
        Step(method: "Test06", parameters: Reference.scalars, mode: .plain, replies: [["struct": Reference.scalars]], next: "Test07"),
        Step(method: "Test07", parameters: ["struct": Reference.scalars], mode: .plain, replies: [["map": Reference.map]], next: "Test08"),
        Step(method: "Test08", parameters: ["map": Reference.map], mode: .plain, replies: [["set": Reference.set]], next: "Test09"),
        Step(method: "Test09", parameters: ["set": Reference.set], mode: .plain, replies: [["mytype": Reference.myType]], next: "Test10"),
        // The reference client may leave the null members out when it passes MyType back.
        Step(
            method: "Test10", parameters: ["mytype": Reference.myType.removing("nullable", "nullable_array_struct")],
            mode: .more, replies: Reference.moreReplies.map { ["string": .string($0)] }, next: "Test11"
        ),
        Step(
            method: "Test11", parameters: ["last_more_replies": .array(Reference.moreReplies.map { .string($0) })],
            mode: .oneway, replies: [], next: "End"
        ),
        Step(method: "End", parameters: [:], mode: .plain, replies: [["all_ok": true]], next: nil),
    ]

    /// A run in progress: the method its client must call next, and when Start began it.
    private struct Run {
        var next: String
        let started: ContinuousClock.Instant
    }

    /// Runs by client id. Abandoned runs are dropped after `runLifetime`, so clients that
    /// give up midway do not grow the table without bound.
    private let runs = Mutex<[String: Run]>([:])
    private static let runLifetime: Duration = .seconds(3600)

    /// Checks that the step table covers exactly the methods the interface text declares.
    init() throws {
        let idl = try VarlinkIDL(parsing: Self.idl)
        let served = Set(["Start"] + Self.steps.map(\.method))
        let declared = Set(idl.methods.map(\.name))
        guard idl.name == Self.interfaceName, served == declared else {
            throw CertificationSetupError(description: "the step table does not match \(Self.interfaceName).varlink")
        }
    }

    /// The interface to hand to VarlinkServer.
    var interface: VarlinkInterface {
        VarlinkInterface(name: Self.interfaceName, description: Self.idl) { call, _, replier in
            try await self.handle(call, replier: replier)
        }
    }

    /// Answers one call of the sequence.
    private func handle(_ call: VarlinkCall, replier: VarlinkReplier) async throws {
        let received = try call.parameters(JSON.self)
        if call.methodName == "Start" {
            try Self.check(call, received: received, wants: [:], mode: .plain)
            try await replier.reply(["client_id": .string(self.begin())] as JSON)
            return
        }
        guard let step = Self.steps.first(where: { $0.method == call.methodName }) else {
            throw VarlinkError.methodNotImplemented(call.method)
        }
        guard case .string(let clientID)? = received["client_id"] else {
            throw Self.clientIDError
        }
        try self.advance(clientID, calling: step.method, next: step.next)
        do {
            try Self.check(call, received: received, wants: step.parameters.setting("client_id", .string(clientID)), mode: step.mode)
        } catch {
            self.forget(clientID)
            throw error
        }
        for (index, reply) in step.replies.enumerated() {
            try await replier.reply(reply, continues: index < step.replies.count - 1)
        }
        if step.next == nil {
            // The test reads this to know the server, not only the client, saw the run through.
            say("certification passed for client \(clientID)")
        }
    }

    /// Starts a run and returns its new client id (32 random hex digits, like the reference).
    private func begin() -> String {
        var generator = SystemRandomNumberGenerator()
        let clientID = (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        let now = ContinuousClock.now
        self.runs.withLock { runs in
            runs = runs.filter { now - $0.value.started < Self.runLifetime }
            runs[clientID] = Run(next: "Test01", started: now)
        }
        return clientID
    }

    /// Moves the run on from `method`, which must be the one it expects.
    private func advance(_ clientID: String, calling method: String, next: String?) throws(VarlinkError) {
        try self.runs.withLock { (runs) throws(VarlinkError) in
            guard let run = runs[clientID] else { throw Self.clientIDError }
            guard run.next == method else {
                runs[clientID] = nil
                throw Self.certificationError(
                    wants: .string("Call to method \(Self.interfaceName).\(run.next)"),
                    got: .string("Call to method \(Self.interfaceName).\(method)")
                )
            }
            runs[clientID] = next.map { Run(next: $0, started: run.started) }
        }
    }

    /// Ends a run that went wrong, so nothing later in it can pass.
    private func forget(_ clientID: String) {
        _ = self.runs.withLock { $0.removeValue(forKey: clientID) }
    }

    /// Throws CertificationError, carrying both messages, unless the call is exactly the one wanted.
    private static func check(_ call: VarlinkCall, received: JSON, wants: JSON, mode: Mode) throws(VarlinkError) {
        let callMode: Mode? = switch (call.more, call.oneway, call.upgrade) {
        case (false, false, false): .plain
        case (true, false, false): .more
        case (false, true, false): .oneway
        default: nil
        }
        if callMode == mode, received == wants {
            return
        }
        throw Self.certificationError(
            wants: Self.message(call.method, parameters: wants, mode: mode),
            got: Self.message(call.method, parameters: received, mode: callMode, upgrade: call.upgrade)
        )
    }

    /// A call message as the reference reports it in CertificationError.
    private static func message(_ method: String, parameters: JSON, mode: Mode?, upgrade: Bool = false) -> JSON {
        var message: JSON = ["method": .string(method), "parameters": parameters]
        if mode == .more { message = message.setting("more", true) }
        if mode == .oneway { message = message.setting("oneway", true) }
        if upgrade { message = message.setting("upgrade", true) }
        return message
    }

    /// The interface's own error for a client id that Start did not give out, or that was forgotten.
    private static let clientIDError = VarlinkError("\(interfaceName).ClientIdError")

    /// The interface's CertificationError: what the step wanted and what it got.
    private static func certificationError(wants: JSON, got: JSON) -> VarlinkError {
        VarlinkError("\(interfaceName).CertificationError", parameters: ["wants": wants, "got": got] as JSON)
    }
}

/// The certification program cannot start or run as built.
struct CertificationSetupError: Error, CustomStringConvertible {
    let description: String
}
