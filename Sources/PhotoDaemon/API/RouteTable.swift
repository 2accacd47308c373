import PhotoAPI
import Varlink

/// One interface's handlers, each registered against its declaration in PhotoAPI (the same
/// declaration the client calls through), like systemd's `varlink_server_bind_method_many`.
///
/// The table does what every method needs, once: it refuses an owner-only method to anyone
/// else, then admits the caller (`admit`: for the library, what the caller may see), and only
/// then decodes the parameters, so a refused app learns nothing from their errors; last it
/// refuses a string over the byte limit the IDL declares for it (`@limit`, generated into the
/// parameter type), so no handler checks a length by hand.
struct RouteTable<Admission: Sendable>: Sendable {
    /// What a handler is given.
    struct Request<Parameters: Sendable>: Sendable {
        let parameters: Parameters
        let admission: Admission
        let caller: Caller
        let call: VarlinkCall
        let replier: VarlinkReplier
    }

    private typealias Route = @Sendable (VarlinkCall, Caller, Admission, VarlinkReplier) async throws -> Void

    /// The interface's name.
    let interface: String
    /// The interface's IDL, which the registered methods must match exactly (`check`).
    let description: String
    /// `description` read once, for `check` and for the server's own checks.
    private let parsed: Result<VarlinkIDL, any Error>
    private let admit: @Sendable (Caller, any MethodDescribing) async throws -> Admission
    private var routes: [String: (method: any MethodDescribing, route: Route)] = [:]

    /// An empty table for the interface `interface` described by `description`.
    init(interface: String, description: String,
         admit: @escaping @Sendable (Caller, any MethodDescribing) async throws -> Admission) {
        self.interface = interface
        self.description = description
        parsed = Result { try VarlinkIDL(parsing: description) }
        self.admit = admit
    }

    /// Registers a method with one reply: the handler's result.
    mutating func on<P, R>(_ method: VarlinkMethod<P, R>, _ handler: @escaping @Sendable (Request<P>) async throws -> R) {
        register(method) { request in
            try await request.replier.reply(try await handler(request))
        }
    }

    /// Registers a method that replies for itself (`more` calls: several replies).
    mutating func stream<P, R>(_ method: VarlinkMethod<P, R>, _ handler: @escaping @Sendable (Request<P>) async throws -> Void) {
        register(method, handler)
    }

    private mutating func register<P, R>(_ method: VarlinkMethod<P, R>,
                                         _ handler: @escaping @Sendable (Request<P>) async throws -> Void) {
        precondition(method.interface == interface && routes[method.name] == nil,
                     "\(method.qualifiedName) registered twice or on the wrong interface")
        routes[method.name] = (method, { call, caller, admission, replier in
            let parameters = try call.parameters(P.self)
            try ParameterLimits.check(parameters)
            try await handler(Request(parameters: parameters, admission: admission, caller: caller, call: call,
                                      replier: replier))
        })
    }

    /// The names of the registered methods.
    var methodNames: Set<String> { Set(routes.keys) }

    /// Answers one call: unknown method, owner-only refusal, admission, then the handler.
    func handle(_ call: VarlinkCall, caller: Caller, replier: VarlinkReplier) async throws {
        guard let entry = routes[call.methodName] else { throw VarlinkError.methodNotFound(call.method) }
        if entry.method.access == .ownerOnly {
            guard case .owner = caller else { throw AccessGate.ownerOnly(call.methodName, interface: interface) }
        }
        let admission = try await admit(caller, entry.method)
        try await entry.route(call, caller, admission, replier)
    }

    /// The table as the varlink server serves it.
    var varlinkInterface: VarlinkInterface {
        let handler: VarlinkInterface.Handler = { call, context, replier in
            try await handle(call, caller: Caller.of(context), replier: replier)
        }
        return switch parsed {
        case .success(let idl): VarlinkInterface(name: interface, description: description, parsed: idl, handler: handler)
        // Reported as VarlinkInterface reports any IDL that does not parse (`check` refuses it at start).
        case .failure: VarlinkInterface(name: interface, description: description, handler: handler)
        }
    }

    /// Checks that the registered methods are exactly the IDL's, so a method the interface
    /// promises cannot be left unserved (nor one served that it does not describe).
    func check() throws(RouteTableError) {
        let idl: VarlinkIDL
        switch parsed {
        case .success(let read): idl = read
        case .failure(let error):
            throw RouteTableError(interface: interface, problem: "its interface description does not parse: \(error)")
        }
        guard idl.name == interface else {
            throw RouteTableError(interface: interface, problem: "its interface description is \(idl.name)")
        }
        let described = Set(idl.methods.map(\.name))
        let unserved = described.subtracting(methodNames).sorted()
        let undescribed = methodNames.subtracting(described).sorted()
        guard unserved.isEmpty, undescribed.isEmpty else {
            var problems: [String] = []
            if !unserved.isEmpty { problems.append("no handler for \(unserved.joined(separator: ", "))") }
            if !undescribed.isEmpty { problems.append("handlers for methods it does not describe: \(undescribed.joined(separator: ", "))") }
            throw RouteTableError(interface: interface, problem: problems.joined(separator: "; "))
        }
    }
}

/// The handlers photod registered do not match the interface it promises: a bug caught at start.
struct RouteTableError: Error, Equatable, CustomStringConvertible {
    /// The interface.
    let interface: String
    /// What does not match.
    let problem: String

    var description: String { "interface \(interface): \(problem)" }
}
