#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes whole buffers to a descriptor, as write(2) must be called: again after a short or an
/// interrupted write. photoctl's output and `NewFile` write through it.
public enum DescriptorWrite {
    /// Writes all of `bytes` to `descriptor`; 0 when done, else the errno that stopped it.
    public static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
