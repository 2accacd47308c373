import SystemPackage

/// A failed system call: which one, and the errno it set. photod's one wording of a failed call,
/// "call: reason", with the reason in the C library's words (swift-system's `Errno`).
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed (`memfd_create`, `copy_file_range`, `chmod PATH`...).
    public let call: String
    /// The errno it set.
    public let errno: Int32

    /// A failure of `call` with `errno`.
    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// "call: reason".
    public var description: String { "\(call): \(Errno(rawValue: errno))" }
}
