import ArgumentParser
import PhotoAPI

/// `--level read|add`: which of PhotoKit's two access levels a command asks for or decides.
enum LevelArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// readWrite: see the library (authorized or limited includes adding).
    case read
    /// addOnly: add photos, see none.
    case add

    /// The wire's level.
    var accessLevel: AccessLevel {
        switch self {
        case .read: .readWrite
        case .add: .addOnly
        }
    }

    /// The wire's level, absent for readWrite, so a daemon from before levels understands the call.
    var wireLevel: AccessLevel? { self == .read ? nil : .addOnly }
}
