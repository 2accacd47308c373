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

extension DescriptorWrite {
    /// What one non-blocking write did.
    public enum Outcome: Sendable, Equatable {
        /// This many bytes (at least one) were taken.
        case wrote(Int)
        /// No room now (EAGAIN).
        case full
        /// The write failed with this errno (EPIPE: the reader is gone).
        case failed(Int32)
    }

    /// One write of `bytes` to a non-blocking `descriptor`; retried only when interrupted.
    public static func once(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Outcome {
        while true {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written >= 0 { return .wrote(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .full
            case let code: return .failed(code)
            }
        }
    }
}

extension DescriptorWrite {
    /// Runs `body` with SIGPIPE blocked on this thread, so a write to a pipe whose reader left
    /// is an EPIPE to handle, not a signal that ends the process; one raised meanwhile is taken.
    public static func withBrokenPipeSignalBlocked<T>(_ body: () -> T) -> T {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &signals, &previous)
        defer {
            var none = timespec()
            while sigtimedwait(&signals, nil, &none) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return body()
    }
}
