#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import Posix
import SystemPackage

/// Tells photod whom this photoctl acts for, by naming the process (`/proc/self/comm`) before
/// it connects; see `PhotoctlRole`.
enum ProcessRole {
    /// Names this process for `role`; throws when it cannot, rather than connecting as a role
    /// photod would not see (a photoctl started through a link named `photoctl-owner` must
    /// not stay the owner while it means to act for its caller).
    static func declare(_ role: PhotoctlRole) throws {
        // /proc/self is the thread group, so any thread renames the process photod reads.
        let descriptor = open("/proc/self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ProcessRoleError(role: role, code: errno) }
        defer { close(descriptor) }
        var name = role.rawValue
        let code = name.withUTF8 { DescriptorWrite.all(UnsafeRawBufferPointer($0), to: descriptor) }
        if code != 0 { throw ProcessRoleError(role: role, code: code) }
    }
}

/// photoctl could not tell photod whom it acts for.
struct ProcessRoleError: Error, CustomStringConvertible {
    let role: PhotoctlRole
    /// The errno of the failed open or write.
    let code: Int32

    var description: String {
        "photoctl: cannot name its process \(role.rawValue) (\(Errno(rawValue: code))), "
            + "so photod could not tell whom it acts for"
    }
}
