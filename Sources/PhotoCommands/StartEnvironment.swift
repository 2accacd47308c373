import Posix

/// photoctl's environment variables, read once.
///
/// Each read of the environment copies every variable into a new dictionary; a short command
/// read it three times (output setup, the endpoint, the owner check): a tenth of `photoctl
/// groups`. photoctl sets variables only for the pager it starts (`Pager.start`), which it never
/// reads back, so the copy taken first stays true. The copy is `EnvironmentVariables`', the same
/// as ProcessInfo's without its cost.
enum StartEnvironment {
    /// The variables by name, as they were at the first read.
    static let variables: [String: String] = EnvironmentVariables.current()
}
