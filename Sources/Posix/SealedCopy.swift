#if canImport(Glibc)
import Glibc
#endif
import CFileCopy

/// A sealed in-memory copy of a file: a memfd holding the bytes, sealed so that no one, not even
/// a process that reopens it through /proc/self/fd, can write, grow or shrink it, or unseal it.
/// Handing this out instead of the file's own descriptor gives the reader the bytes and nothing
/// that leads back to the file.
public enum SealedCopy {
    /// The seals every copy carries: no write, grow, shrink, and no further change of seals.
    public static let seals: Int32 = PHOTOD_F_SEAL_WRITE | PHOTOD_F_SEAL_GROW | PHOTOD_F_SEAL_SHRINK | PHOTOD_F_SEAL_SEAL

    /// A sealed memfd (close-on-exec, positioned at 0) with up to `count` bytes of `source` from
    /// offset 0, and how many there were (fewer when the file shrank meanwhile). `source`'s
    /// offset is not moved. The caller owns the descriptor.
    public static func make(copying source: Int32, count: Int, name: String) -> Result<(descriptor: Int32, size: Int), SystemCallError> {
        let memory = memfd_create(name, PHOTOD_MFD_CLOEXEC | PHOTOD_MFD_ALLOW_SEALING)
        guard memory >= 0 else { return .failure(SystemCallError("memfd_create", errno: errno)) }
        let copied: Int
        switch copy(from: source, to: memory, count: count) {
        case .success(let bytes): copied = bytes
        case .failure(let error):
            close(memory)
            return .failure(error)
        }
        // The receiver shares this descriptor's offset: it must start at the first byte.
        guard lseek(memory, 0, SEEK_SET) == 0 else { return fail(memory, "lseek") }
        guard fcntl(memory, PHOTOD_F_ADD_SEALS, seals) == 0 else { return fail(memory, "fcntl(F_ADD_SEALS)") }
        return .success((memory, copied))
    }

    /// The seals on `descriptor`, or nil when it is no memfd that allows sealing.
    public static func seals(of descriptor: Int32) -> Int32? {
        let seals = fcntl(descriptor, PHOTOD_F_GET_SEALS)
        return seals < 0 ? nil : seals
    }

    /// Copies `count` bytes from offset 0 of `source` to the start of `target`: in the kernel
    /// (copy_file_range, else sendfile) where it can, through a buffer where it cannot.
    private static func copy(from source: Int32, to target: Int32, count: Int) -> Result<Int, SystemCallError> {
        var inOffset = off_t(0)
        var outOffset = off_t(0)
        var kernelCopy = true
        while Int(inOffset) < count {
            let wanted = min(count - Int(inOffset), 1 << 30)
            if kernelCopy {
                let moved = copy_file_range(source, &inOffset, target, &outOffset, wanted, 0)
                if moved > 0 { continue }
                if moved == 0 { break }
                if errno == EINTR { continue }
                guard [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(errno) else {
                    return .failure(SystemCallError("copy_file_range", errno: errno))
                }
                // Across file systems (ext4 to tmpfs since Linux 5.19) sendfile still copies in the kernel.
                kernelCopy = false
            }
            switch sendfileOrRead(from: source, offset: &inOffset, to: target, outOffset: &outOffset, count: wanted) {
            case .success(0): return .success(Int(inOffset))
            case .success: continue
            case .failure(let error): return .failure(error)
            }
        }
        return .success(Int(inOffset))
    }

    /// One sendfile to `target` at `outOffset` (which sendfile takes from the descriptor's own
    /// offset), or one pread and pwrite where sendfile cannot.
    private static func sendfileOrRead(
        from source: Int32, offset: inout off_t, to target: Int32, outOffset: inout off_t, count: Int
    ) -> Result<Int, SystemCallError> {
        if lseek(target, outOffset, SEEK_SET) == outOffset {
            while true {
                let moved = sendfile(target, source, &offset, count)
                if moved >= 0 {
                    outOffset += off_t(moved)
                    return .success(moved)
                }
                if errno == EINTR { continue }
                guard errno == EINVAL || errno == ENOSYS else { return .failure(SystemCallError("sendfile", errno: errno)) }
                break
            }
        }
        var buffer = [UInt8](repeating: 0, count: min(count, 1 << 20))
        return buffer.withUnsafeMutableBytes { bytes -> Result<Int, SystemCallError> in
            let got = pread(source, bytes.baseAddress, bytes.count, offset)
            guard got >= 0 else { return .failure(SystemCallError("pread", errno: errno)) }
            var written = 0
            while written < got {
                let put = pwrite(target, bytes.baseAddress.map { $0 + written }, got - written, outOffset + off_t(written))
                if put < 0, errno == EINTR { continue }
                guard put > 0 else { return .failure(SystemCallError("pwrite", errno: errno)) }
                written += put
            }
            offset += off_t(got)
            outOffset += off_t(got)
            return .success(got)
        }
    }

    private static func fail<T>(_ descriptor: Int32, _ call: String) -> Result<T, SystemCallError> {
        let code = errno
        close(descriptor)
        return .failure(SystemCallError(call, errno: code))
    }
}
