/// Why bytes could not be read as the JSON value a wire type expects.
public struct JSONReadError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The offset of the byte where reading stopped, from the start of the message.
    public let offset: Int
    /// What was wrong there, in words that never quote the bytes themselves (they are hostile).
    public let reason: String

    /// An error at `offset`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The reason and where it was found.
    public var description: String {
        "invalid JSON at byte \(offset): \(reason)"
    }
}
