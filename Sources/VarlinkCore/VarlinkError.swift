/// An error reply: a qualified name and its parameters (a JSON object).
///
/// Handlers throw it to answer a call with an error; clients receive it when the server answers
/// with one. Equality compares the name and the parameter bytes, which are always encoded with
/// sorted keys, so two errors built from equal values compare equal.
public struct VarlinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The qualified error name, e.g. `org.varlink.service.InvalidParameter`.
    public let name: String
    /// The error's parameters as a JSON object.
    public let parametersJSON: [UInt8]

    /// An error without parameters.
    public init(_ name: String) {
        self.name = name
        self.parametersJSON = JSONWire.emptyObject
    }

    /// An error with parameters; they must encode to a JSON object.
    ///
    /// This initializer cannot throw (it is used in `throw` expressions), so parameters that fail
    /// to encode as an object are replaced by `{}`: the error name still reaches the client.
    public init<P: Encodable>(_ name: String, parameters: P) {
        self.name = name
        self.parametersJSON = (try? JSONWire.encodeObject(parameters)) ?? JSONWire.emptyObject
    }

    package init(name: String, parametersJSON: [UInt8]) {
        self.name = name
        self.parametersJSON = parametersJSON
    }

    /// The parameters decoded as `P`, or nil when they do not fit.
    public func parameters<P: Decodable>(_ type: P.Type) -> P? {
        try? JSONWire.decode(type, from: self.parametersJSON)
    }

    /// The name followed by the parameters, as a person reads it in a log.
    public var description: String {
        if self.parametersJSON == JSONWire.emptyObject {
            return self.name
        }
        return "\(self.name) \(String(decoding: self.parametersJSON, as: UTF8.self))"
    }
}

extension VarlinkError {
    /// `org.varlink.service.InterfaceNotFound(interface)`.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", parameters: ["interface": interface])
    }

    /// `org.varlink.service.MethodNotFound(method)`.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", parameters: ["method": method])
    }

    /// `org.varlink.service.MethodNotImplemented(method)`.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", parameters: ["method": method])
    }

    /// `org.varlink.service.InvalidParameter(parameter)`.
    public static func invalidParameter(_ name: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": name])
    }

    /// `org.varlink.service.ExpectedMore()`: the method streams and the call did not set `more`.
    public static func expectedMore() -> VarlinkError {
        VarlinkError("org.varlink.service.ExpectedMore")
    }

    /// `org.varlink.service.PermissionDenied()`.
    public static func permissionDenied() -> VarlinkError {
        VarlinkError("org.varlink.service.PermissionDenied")
    }

    /// `org.varlink.service.InternalError()`: the answer to a handler that failed with anything
    /// other than a VarlinkError.
    ///
    /// The varlink spec defines no such error; this name is the one libvarlink's C++ binding and
    /// other servers already use, so generic clients recognise it. It carries no parameters on
    /// purpose: the underlying error may hold paths or SQL, and goes to the server's log instead.
    public static func internalError() -> VarlinkError {
        VarlinkError("org.varlink.service.InternalError")
    }
}
