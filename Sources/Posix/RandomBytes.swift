#if canImport(Glibc)
import Glibc
#endif
import CRandom

/// Bytes from the kernel's random source, many per system call.
public enum RandomBytes {
    /// `count` random bytes from getrandom(2), as random as `SystemRandomNumberGenerator`'s
    /// (which asks the kernel for each value separately); falls back to that generator where
    /// getrandom fails (only where the kernel lacks it), so the bytes are never weaker.
    public static func draw(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                getrandom(buffer.baseAddress.map { $0 + filled }, buffer.count - filled, 0)
            }
            if got > 0 {
                filled += got
            } else if got < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        if filled < bytes.count {
            var generator = SystemRandomNumberGenerator()
            for index in filled..<bytes.count { bytes[index] = generator.next() }
        }
        return bytes
    }
}
