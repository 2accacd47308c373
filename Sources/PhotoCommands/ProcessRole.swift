import Foundation
import PhotoAPI

/// Tells photod whom this photoctl acts for, by naming the process (`/proc/self/comm`) before
/// it connects; see `PhotoctlRole`.
enum ProcessRole {
    /// Names this process for `role`; throws when it cannot, rather than connecting as a role
    /// photod would not see (a photoctl started through a link named `photoctl-owner` must
    /// not stay the owner while it means to act for its caller).
    static func declare(_ role: PhotoctlRole) throws {
        do {
            // /proc/self is the thread group, so any thread renames the process photod reads.
            try Data(role.rawValue.utf8).write(to: URL(fileURLWithPath: "/proc/self/comm"))
        } catch {
            throw ProcessRoleError(role: role, reason: error.localizedDescription)
        }
    }
}

/// photoctl could not tell photod whom it acts for.
struct ProcessRoleError: Error, CustomStringConvertible {
    let role: PhotoctlRole
    let reason: String

    var description: String {
        "photoctl: cannot name its process \(role.rawValue) (\(reason)), so photod could not tell whom it acts for"
    }
}
