import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix

/// `photoctl bridge`: varlink's bridge convention, photod's socket joined to stdin and stdout,
/// so `ssh HOST photoctl bridge` (what `photoctl --host` and `varlink --bridge` run) reaches the
/// photod that serves the SSH login's user. photod names the caller from the socket's peer
/// (this process, run by that user): nothing about identity is read from the bytes.
struct BridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Join stdin and stdout to photod's socket (for ssh and varlink --bridge).",
        discussion: """
            Bytes pass unchanged both ways; photod sees the user who ran the bridge. End of file \
            on stdin closes the socket's sending side; the bridge exits when photod closes. \
            photod takes that as the client gone, so keep stdin open until the replies came. \
            Example: varlink --bridge "ssh nas photoctl bridge" call io.photod.Library.ListGroups '{}'
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let socket = try global.bridgeSocket()
        // Each direction on its own thread with plain reads and writes: neither waits on the other.
        let started = DetachedThread.start(name: "bridge-in") {
            _ = ByteRelay.copy(from: STDIN_FILENO, to: socket)
            // Half-close, as varlink's bridge convention has it: photod's relay takes it for the
            // client gone (RelayLoop), so it closes and the other direction ends too.
            shutdown(socket, Int32(SHUT_WR))
        }
        guard started else {
            // Nothing would carry the calls: say so rather than wait for replies that never come.
            close(socket)
            throw BridgeError()
        }
        // However photod went (closed, or reset by a crash), the far end sees the stream end and
        // says "photod stopped" itself; exit status 3 is kept for a photod the bridge cannot reach.
        _ = await DetachedThread.result(name: "bridge-out") { ByteRelay.copy(from: socket, to: STDOUT_FILENO) }
        // The socket is left to the exit: the other thread may still be reading stdin for it.
    }
}

/// `photoctl bridge` could not start its second thread.
struct BridgeError: Error, CustomStringConvertible {
    var description: String { "photoctl bridge: cannot start a thread to carry stdin to photod" }
}
