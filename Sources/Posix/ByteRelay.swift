#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Copies bytes from one descriptor to another as they come, through one bounded buffer: one
/// direction of `photoctl bridge`, each direction on a thread of its own so neither waits on
/// the other.
public enum ByteRelay {
    /// How one direction ended.
    public enum End: Sendable, Equatable {
        /// The source reached end of file.
        case endOfFile
        /// Reading the source failed with this errno.
        case readFailed(Int32)
        /// Writing to the destination failed with this errno (EPIPE: its reader went away).
        case writeFailed(Int32)
    }

    /// The most bytes in flight per direction: a varlink message larger than this just takes
    /// several reads.
    public static let bufferBytes = 64 << 10

    /// Copies `source` to `destination` until one of them ends; writes never raise SIGPIPE
    /// (photoctl ignores it), so a reader gone away is `writeFailed(EPIPE)`.
    public static func copy(from source: Int32, to destination: Int32) -> End {
        var buffer = [UInt8](repeating: 0, count: bufferBytes)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if got == 0 { return .endOfFile }
            if got < 0 {
                if errno == EINTR { continue }
                return .readFailed(errno)
            }
            let code = buffer.withUnsafeBytes { DescriptorWrite.all(UnsafeRawBufferPointer(rebasing: $0[..<got]), to: destination) }
            if code != 0 { return .writeFailed(code) }
        }
    }
}
