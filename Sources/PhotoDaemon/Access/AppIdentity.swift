/// Who a client app is, decided from the kernel (SO_PEERCRED and /proc), never from what it declares.
struct AppIdentity: Sendable, Hashable, Codable {
    /// Which rule produced the id.
    enum Source: String, Sendable, Codable {
        case appUnit, executable, script, module
        /// Another user's process photod may not look into, outside any app unit: named by its uid.
        case user
    }

    /// The stable app id: `app:<ApplicationID>`, `exe:<path>`, `script:<exe>:<path>`, `module:<exe>:<name>`,
    /// or `uid:<uid>:exe-unknown`.
    let id: String
    /// The peer's user id, from SO_PEERCRED.
    let uid: UInt32
    /// Which rule produced `id`.
    let source: Source
    /// The resolved `/proc/PID/exe`, without a " (deleted)" suffix; empty when it could not be read.
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

    /// Another user's process that no rule can name (its exe is not photod's to read, and it
    /// runs in no app unit): all such processes of one user are one app. The `uid:` kind is
    /// never produced for anything else, and records are kept per uid, so the id can neither
    /// take another user's grants nor, being of another uid, be the owner.
    static func unknownExecutable(uid: UInt32) -> AppIdentity {
        AppIdentity(id: "uid:\(uid):exe-unknown", uid: uid, source: .user, executable: "")
    }
}
