/// Parameters of `org.varlink.service.InvalidParameter`, which no photod IDL file declares.
public struct InvalidParameterError: Codable, Sendable, Equatable {
    /// The parameter refused.
    public var parameter: String

    /// Creates the error parameters.
    public init(parameter: String) { self.parameter = parameter }
}
