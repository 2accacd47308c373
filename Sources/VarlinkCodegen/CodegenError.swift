/// Why the generator could not write the Swift for an interface.
public struct CodegenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the IDL member.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
