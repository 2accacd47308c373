/// Per-connection facts a handler may use.
public struct VarlinkConnectionContext: Sendable {
    /// A number unique among the server's connections, for logs.
    public let id: UInt64
    /// The peer's credentials, or nil when the kernel would not tell.
    public let peer: VarlinkPeer?
    /// What the server's `attach` hook returned for this connection (for example, who the peer is).
    public let attachment: (any Sendable)?

    init(id: UInt64, peer: VarlinkPeer?, attachment: (any Sendable)? = nil) {
        self.id = id
        self.peer = peer
        self.attachment = attachment
    }
}

/// One interface served: its name, its IDL text, and the handler for its methods.
public struct VarlinkInterface: Sendable {
    /// The handler's type: it answers through the replier or throws a VarlinkError.
    public typealias Handler = @Sendable (VarlinkCall, VarlinkConnectionContext, VarlinkReplier) async throws -> Void

    /// The qualified interface name, e.g. `io.photod.Library`.
    public let name: String
    /// The IDL text served by GetInterfaceDescription.
    public let description: String
    let handler: Handler
    /// Methods the IDL declares; calls to anything else get MethodNotFound without reaching the handler.
    let methods: Set<String>
    /// The parsed IDL, which debug builds check calls and replies against; nil when it does not parse.
    let idl: VarlinkIDL?

    /// Serves `description` as the interface's IDL and routes its calls to `handler`. An IDL
    /// that does not parse is a programming error: debug builds stop on it, and a release
    /// build answers every call with MethodNotFound rather than guess what it declares.
    public init(name: String, description: String, handler: @escaping Handler) {
        let idl: VarlinkIDL?
        do {
            idl = try VarlinkIDL(parsing: description)
        } catch {
            VarlinkIDLCheck.report("the IDL of \(name) does not parse: \(error)")
            idl = nil
        }
        self.init(name: name, description: description, parsed: idl, handler: handler)
    }

    /// Serves `description`, which the caller has already read into `idl` (photod's route table
    /// reads it to check its handlers at start): the text is parsed once.
    public init(name: String, description: String, parsed idl: VarlinkIDL?, handler: @escaping Handler) {
        self.name = name
        self.description = description
        self.handler = handler
        self.idl = idl
        self.methods = Self.methodNames(in: idl)
    }

    /// The methods `idl` declares, read by the one IDL reader.
    static func methodNames(in idl: VarlinkIDL?) -> Set<String> {
        Set(idl?.methods.map(\.name) ?? [])
    }

    /// The method `name`'s input and output, with the IDL that names their types.
    func method(_ name: String) -> (VarlinkIDLCheck, VarlinkIDL.Method)? {
        guard let idl, let method = idl.method(name) else { return nil }
        return (VarlinkIDLCheck(idl), method)
    }
}

/// Server identity reported by org.varlink.service.GetInfo.
public struct VarlinkServiceInfo: Sendable {
    /// Who makes the service.
    public let vendor: String
    /// The program's name.
    public let product: String
    /// The program's version.
    public let version: String
    /// Where to read about it.
    public let url: String

    /// Creates the identity GetInfo reports.
    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}

/// The interfaces a server answers for, including the built-in org.varlink.service.
struct VarlinkRegistry: Sendable {
    static let serviceInterfaceName = "org.varlink.service"

    private let interfaces: [String: VarlinkInterface]

    init(interfaces: [VarlinkInterface], info: VarlinkServiceInfo) {
        let names = [Self.serviceInterfaceName] + interfaces.map(\.name)
        let descriptions = Dictionary(
            interfaces.map { ($0.name, $0.description) },
            uniquingKeysWith: { first, _ in first }
        )
        let service = VarlinkInterface(name: Self.serviceInterfaceName, description: Self.serviceIDL) {
            call, _, replier in
            try await Self.serve(call, replier: replier, info: info, names: names, descriptions: descriptions)
        }
        var table: [String: VarlinkInterface] = [:]
        for interface in interfaces where table[interface.name] == nil {
            table[interface.name] = interface
        }
        table[Self.serviceInterfaceName] = service
        self.interfaces = table
    }

    /// The handler for a call, or the error that answers it when no handler can; with the
    /// call's contract in debug builds (the IDL its parameters and replies are checked against).
    func route(_ call: VarlinkCall) -> Result<(VarlinkInterface.Handler, CallContract?), VarlinkError> {
        guard let interface = self.interfaces[call.interface] else {
            return .failure(.interfaceNotFound(call.interface))
        }
        guard interface.methods.contains(call.methodName) else {
            return .failure(.methodNotFound(call.method))
        }
        return .success((interface.handler,
                         CallContract(call, interface: interface, service: self.interfaces[Self.serviceInterfaceName])))
    }

    private struct Info: Encodable, Sendable {
        let vendor: String
        let product: String
        let version: String
        let url: String
        let interfaces: [String]
    }

    private struct DescriptionRequest: Decodable {
        let interface: String
    }

    private struct Description: Encodable, Sendable {
        let description: String
    }

    private static func serve(
        _ call: VarlinkCall,
        replier: VarlinkReplier,
        info: VarlinkServiceInfo,
        names: [String],
        descriptions: [String: String]
    ) async throws {
        switch call.methodName {
        case "GetInfo":
            try await replier.reply(
                Info(vendor: info.vendor, product: info.product, version: info.version, url: info.url, interfaces: names)
            )
        case "GetInterfaceDescription":
            let request = try call.parameters(DescriptionRequest.self)
            if request.interface == Self.serviceInterfaceName {
                try await replier.reply(Description(description: Self.serviceIDL))
            } else if let text = descriptions[request.interface] {
                try await replier.reply(Description(description: text))
            } else {
                throw VarlinkError.interfaceNotFound(request.interface)
            }
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    /// The standard service interface text (varlink.org, with the later PermissionDenied and ExpectedMore).
    static let serviceIDL = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
