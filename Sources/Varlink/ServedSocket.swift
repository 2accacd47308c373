#if canImport(Glibc)
import Glibc
#endif

/// How the server lets go of its last duplicate of a client's socket.
enum ServedSocket {
    /// Shuts the socket down both ways, then closes this duplicate. Once the client half-closed,
    /// the relay keeps its own copy open to hear a hang-up: the shutdown is what ends the stream
    /// for the client, and what the relay's copy reports as a hang-up, so the relay closes it too.
    static func end(_ socket: Int32) {
        _ = shutdown(socket, Int32(SHUT_RDWR))
        _ = close(socket)
    }
}
