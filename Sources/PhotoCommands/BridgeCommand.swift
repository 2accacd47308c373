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
            on stdin closes the socket's sending side: photod still answers every call sent, \
            then closes, and the bridge exits once the replies are out (or at once when stdout's \
            reader is gone). \
            Example: varlink --bridge "ssh nas photoctl bridge" call io.photod.Library.ListGroups '{}'
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let socket = try global.bridgeSocket()
        // Each direction on its own thread with plain reads and writes: neither waits on the other.
        let started = DetachedThread.start(name: "bridge-in") {
            _ = ByteRelay.copy(from: STDIN_FILENO, to: socket)
            // Half-close, as varlink's bridge convention has it: photod answers the calls it has
            // (RelayLoop), then closes, which ends the other direction and the bridge.
            shutdown(socket, Int32(SHUT_WR))
            // Whoever reads the replies may go meanwhile (ssh's connection dropped): a call that
            // never ends (a watch) would then keep the bridge and photod's call alive until its
            // next reply failed to go out. Nobody can take them, so end the connection at once.
            if ReaderGone.wait(on: STDOUT_FILENO) {
                shutdown(socket, Int32(SHUT_RDWR))
            }
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
