import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import Synchronization
import Testing

@testable import PhotoCommands

/// The real `TTYTerminal` on a pseudo-terminal, driven from its other end as a person and a
/// terminal emulator would: raw mode, the reading thread, the kitty answer or silence, and the
/// settings put back afterwards.
@Suite struct PickerPTYTests {
    /// The emulator's end of a pseudo-terminal, with everything the picker wrote.
    final class Emulator: Sendable {
        let master: Int32
        let slavePath: String
        let output = Mutex("")
        let stop = Mutex(false)

        init?(answerKitty: Bool, columns: UInt16 = 120, rows: UInt16 = 30) {
            // posix_openpt and friends hide behind _XOPEN_SOURCE in Swift's Glibc; their ioctls do not.
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            let getNumber: UInt = 0x8004_5430 // TIOCGPTN, _IOR('T', 0x30, unsigned int)
            let setLock: UInt = 0x4004_5431 // TIOCSPTLCK, _IOW('T', 0x31, int)
            guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
                return nil
            }
            slavePath = "/dev/pts/\(number)"
            var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
            DispatchQueue(label: "test.emulator").async { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                var answered = false
                while !stop.withLock({ $0 }) {
                    var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 20) > 0 else { continue }
                    let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                    guard count > 0 else { continue }
                    let text = output.withLock { current -> String in
                        current += String(decoding: buffer[0..<count], as: UTF8.self)
                        return current
                    }
                    if answerKitty && !answered && text.contains("a=q,t=d,f=24;AAAA") {
                        answered = true
                        type(ScriptedTerminal.kittyReply)
                    }
                }
            }
        }

        /// Types `text` into the terminal.
        func type(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }

        /// Waits until the picker wrote `text` (at most five seconds).
        func waitFor(_ text: String) async -> Bool {
            for _ in 0..<500 {
                if output.withLock({ $0.contains(text) }) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        /// The slave's line settings now: canonical input and echo, as a shell leaves them.
        func isCooked() -> Bool {
            let descriptor = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
            defer { close(descriptor) }
            var settings = termios()
            guard tcgetattr(descriptor, &settings) == 0 else { return false }
            return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
        }

        deinit {
            stop.withLock { $0 = true }
            // The reader polls every 20 ms; give it that long before the descriptor goes.
            usleep(50_000)
            close(master)
        }
    }

    @Test func kittyAnsweringPseudoTerminal() async throws {
        let emulator = try #require(Emulator(answerKitty: true))
        let terminal = try #require(TTYTerminal.controlling(path: emulator.slavePath))
        let picker = Task { try await InteractivePicker.run(fakePick(), terminal: terminal, source: FakeLibrary([("Beach", 45)])) }
        #expect(await emulator.waitFor("> Beach  (45 photos)"))
        #expect(!emulator.isCooked(), "raw while the picker runs")
        emulator.type("\r")
        #expect(await emulator.waitFor("\u{1B}_Ga=T,f=100"))
        emulator.type(" c")
        #expect(try await picker.value == ["Beach-0"])
        #expect(emulator.isCooked(), "the terminal is put back")
        #expect(await emulator.waitFor(KittyGraphics.deleteAll + ScreenText.leave))
    }

    @Test func silentPseudoTerminalGetsText() async throws {
        let emulator = try #require(Emulator(answerKitty: false, columns: 90, rows: 20))
        let terminal = try #require(TTYTerminal.controlling(path: emulator.slavePath))
        let picker = Task { try await InteractivePicker.run(fakePick(), terminal: terminal, source: FakeLibrary([("Beach", 45)])) }
        #expect(await emulator.waitFor("> Beach  (45 photos)"))
        emulator.type("\r")
        #expect(await emulator.waitFor("IMG_0.jpg   2024-06-01 10:00:00  Beach  2.4 MB"))
        emulator.type("\u{1B}")
        #expect(try await picker.value == nil)
        #expect(emulator.isCooked())
        let written = emulator.output.withLock { $0 }.replacing(ProtocolDetector.query, with: "")
        #expect(!written.contains("\u{1B}_G"))
    }
}
