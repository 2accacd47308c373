/// Who a client app is, decided from the kernel (SO_PEERCRED and /proc), never from what it declares.
struct AppIdentity: Sendable, Hashable, Codable {
    /// Which rule produced the id.
    enum Source: String, Sendable, Codable {
        case appUnit, executable, script, module
    }

    /// The stable app id: `app:<ApplicationID>`, `exe:<path>`, `script:<exe>:<path>` or `module:<exe>:<name>`.
    let id: String
    /// The peer's user id, from SO_PEERCRED.
    let uid: UInt32
    /// Which rule produced `id`.
    let source: Source
    /// The resolved `/proc/PID/exe`, without a " (deleted)" suffix.
    let executable: String
    /// Whether `/proc/PID/exe` said the executable file was deleted (replaced or removed since it started).
    let executableDeleted: Bool

    /// An identity as the resolver decided it.
    init(id: String, uid: UInt32, source: Source, executable: String, executableDeleted: Bool = false) {
        self.id = id
        self.uid = uid
        self.source = source
        self.executable = executable
        self.executableDeleted = executableDeleted
    }
}
