#if canImport(Glibc)
import Glibc
#endif

/// Users by name, through NSS (so LDAP and other directories count, not only /etc/passwd).
public enum UserDatabase {
    /// The uid of the user called `name`, or nil when there is none.
    public static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 1024
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            let status = getpwnam_r(name, &entry, &buffer, buffer.count, &result)
            if status == ERANGE {
                size *= 4
                continue
            }
            return status == 0 && result != nil ? entry.pw_uid : nil
        }
        return nil
    }
}
