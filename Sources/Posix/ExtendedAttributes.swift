#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CFileCopy

/// A file's extended attributes (user.*, and the system.* ones such as POSIX ACLs), read and set
/// on open descriptors, so a file rewritten under a temporary name can keep its original's.
public enum ExtendedAttributes {
    /// The names of `descriptor`'s attributes (each without its NUL); none on a file system that
    /// keeps no attributes (ENOTSUP).
    public static func names(of descriptor: Int32) throws(SystemCallError) -> [[UInt8]] {
        let list = try sized("flistxattr") { buffer, size in flistxattr(descriptor, buffer, size) }
        guard let list else { return [] }
        return list.split(separator: 0, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The value of attribute `name` of `descriptor`; nil when it has no such attribute.
    public static func value(_ name: [UInt8], of descriptor: Int32) throws(SystemCallError) -> [UInt8]? {
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        return try sized("fgetxattr") { buffer, size in fgetxattr(descriptor, cName, buffer, size) }
    }

    /// Sets attribute `name` of `descriptor` to `value`, creating or replacing it.
    public static func set(_ name: [UInt8], to value: [UInt8], on descriptor: Int32) throws(SystemCallError) {
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        let result = value.withUnsafeBytes { fsetxattr(descriptor, cName, $0.baseAddress, $0.count, 0) }
        guard result == 0 else { throw SystemCallError("fsetxattr", errno: errno) }
    }

    /// Gives `target` every attribute `source` has, with the same value; one already equal (a
    /// security label the file system gave the new file) is left alone. On failure, the name of
    /// the attribute that could not be copied and why; `target` may then hold some of them.
    public static func copy(from source: Int32, to target: Int32) -> (name: [UInt8], error: SystemCallError)? {
        let names: [[UInt8]]
        do throws(SystemCallError) { names = try self.names(of: source) } catch { return ([], error) }
        for name in names {
            do throws(SystemCallError) {
                // Listed a moment ago and gone now: nothing to keep.
                guard let value = try value(name, of: source) else { continue }
                if try self.value(name, of: target) == value { continue }
                try set(name, to: value, on: target)
            } catch {
                return (name, error)
            }
        }
        return nil
    }

    /// Calls `fill` (a size query with a nil buffer first, then the read) until the value fits;
    /// nil for ENODATA (no such attribute) and ENOTSUP (no attributes here).
    private static func sized(
        _ call: String, _ fill: (UnsafeMutablePointer<CChar>?, Int) -> Int
    ) throws(SystemCallError) -> [UInt8]? {
        // The value may grow between the size query and the read (ERANGE): ask again, a few times.
        for _ in 0..<4 {
            let size = fill(nil, 0)
            if size < 0 {
                if errno == ENODATA || errno == ENOTSUP { return nil }
                throw SystemCallError(call, errno: errno)
            }
            if size == 0 { return [] }
            var buffer = [CChar](repeating: 0, count: size)
            let read = buffer.withUnsafeMutableBufferPointer { fill($0.baseAddress, $0.count) }
            if read >= 0 { return buffer[..<read].map { UInt8(bitPattern: $0) } }
            if errno == ENODATA || errno == ENOTSUP { return nil }
            if errno != ERANGE { throw SystemCallError(call, errno: errno) }
        }
        throw SystemCallError(call, errno: ERANGE)
    }
}
