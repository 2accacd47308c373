#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Noticing that nobody reads a descriptor any more, without writing to it.
enum ReaderGone {
    /// Waits until `destination`'s reader is gone (a pipe's read end or a socket's peer closed:
    /// poll reports an error or a hang-up); never returns for a descriptor that cannot say, a
    /// file or a terminal. False when poll itself fails.
    static func wait(on destination: Int32) -> Bool {
        // No events asked for: errors and hang-ups are reported all the same.
        var watched = pollfd(fd: destination, events: 0, revents: 0)
        while true {
            if poll(&watched, 1, -1) < 0 {
                if errno == EINTR { continue }
                return false
            }
            if Int32(watched.revents) & (POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
        }
    }
}
