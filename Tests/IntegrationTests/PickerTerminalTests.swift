import Foundation
import PhotoTestSupport
import Testing

/// `photoctl pick` on a pseudo-terminal against the real photod: the owner opens a group, marks
/// a photo and confirms, and the app gets it; a terminal that answers the kitty graphics query
/// is sent thumbnails, one that does not gets the text view.
@Suite(.serialized)
struct PickerTerminalTests {
    /// Runs `photoctl pick` on a 24x100 pty. With "kitty", answers the graphics query as kitty
    /// does; every terminal answers the device-attributes request, listing sixel (4) with "sixel". Then, for
    /// each pair of arguments, waits for the text and types the keys. Prints what it saw.
    static let driver = #"""
        import fcntl, os, pty, select, struct, sys, termios, time
        photoctl, kind, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
        # PICK_ARGV (one argument a line): the command to run instead, as a terminal's -e gets it.
        argv = os.environ["PICK_ARGV"].split("\n") if os.environ.get("PICK_ARGV") else [photoctl, "pick"]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(argv[0], argv)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        seen, start, answered = b"", 0, False
        def pump(text):
            global seen, start, answered
            deadline = time.time() + 20
            while text.encode() not in seen[start:]:
                ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
                if not ready:
                    sys.exit("no %r on the terminal; it shows: %r" % (text, seen[-3000:]))
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    sys.exit("the terminal closed before %r; it shows: %r" % (text, seen[-3000:]))
                seen += data
                if not answered and b"a=q" in seen and b"\x1b[c" in seen:
                    answered = True
                    reply = b"\x1b_Gi=31;OK\x1b\\" if kind == "kitty" else b""
                    os.write(fd, reply + (b"\x1b[?62;4;22c" if kind == "sixel" else b"\x1b[?62;22c"))
            start = seen.index(text.encode(), start) + len(text.encode())
        for i in range(0, len(steps), 2):
            pump(steps[i])
            os.write(fd, steps[i + 1].encode())
        # Everything photoctl writes until it exits (the pty then reads EIO), then its status.
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            seen += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(seen.decode(errors="replace"))
        sys.exit(os.waitstatus_to_exitcode(status))
        """#

    /// Drives the picker through a pick of one Beach photo on a `kind` terminal; what the
    /// terminal showed, and the ids the app got.
    static func pickOneBeachPhoto(kind: String) async throws -> (screen: String, ids: [String]?, beach: [String]) {
        let (daemon, owner, app, _, beach, _) = try await PickTests.setUp()
        let pick = try await PickTests.picking(app)
        let driver = try daemon.dir.write("picker.py", Array(Self.driver.utf8))
        let run = try await ProcessRunner.run("/usr/bin/env", [
            "python3", driver, Binaries.photoctl, kind,
            // A kitty terminal is sent the current photo's thumbnail before anything is marked.
            "Beach  (2 photos)", "\r", ["kitty": "a=T,f=100", "sixel": "\u{1B}P0;1;0q"][kind] ?? "/2.jpg", " ",
            "1 of 1 marked", "c",
        ], environment: daemon.environment)
        #expect(run.status == 0, "\(run.stdout.suffix(3000))\n\(run.stderr)")
        await owner.close()
        return (run.stdout, await PickTests.pickedIDs(pick), beach.map(\.id))
    }

    @Test func aKittyTerminalGetsThumbnailsAndTheAppGetsThePhotoMarked() async throws {
        let (screen, ids, beach) = try await Self.pickOneBeachPhoto(kind: "kitty")
        #expect(ids?.count == 1 && beach.contains(ids?.first ?? ""), "\(ids ?? [])")
        #expect(screen.contains("\u{1b}_Ga=T,f=100"),
                "a thumbnail was transmitted: \(screen.suffix(2000))")
        #expect(screen.contains("picked 1 photo"))
    }

    @Test func aSixelTerminalGetsTheThumbnailDrawnInSixel() async throws {
        let (screen, ids, beach) = try await Self.pickOneBeachPhoto(kind: "sixel")
        #expect(ids?.count == 1 && beach.contains(ids?.first ?? ""), "\(ids ?? [])")
        #expect(screen.contains("\u{1B}P0;1;0q\"1;1;"), "a sixel picture was drawn: \(screen.suffix(2000))")
        #expect(!screen.contains("a=T"), "and no kitty graphics")
    }

    @Test func aPlainTerminalGetsTheTextView() async throws {
        let (screen, ids, beach) = try await Self.pickOneBeachPhoto(kind: "plain")
        #expect(ids?.count == 1 && beach.contains(ids?.first ?? ""), "\(ids ?? [])")
        #expect(!screen.contains("a=T"), "no picture is sent to a terminal that did not answer")
        #expect(screen.contains(".jpg") && screen.contains("Beach"), "\(screen.suffix(2000))")
    }

    @Test func thePromptAsksAboutAWaitingPickAndCancelsIt() async throws {
        let (daemon, owner, app, _, _, _) = try await PickTests.setUp()
        let pick = try await PickTests.picking(app)
        let helper = try daemon.dir.write("terminal.py", Array(PermissionsPromptTests.terminal.utf8))
        let prompt = try await ProcessRunner.run("/usr/bin/env", [
            "python3", helper, Binaries.photoctl, "[c]hoose / [x] cancel it / [s]kip", "x",
        ], environment: daemon.environment)
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        #expect(prompt.stdout.contains("wants you to choose a photo (\"Test Viewer\"): Choose a cover"), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("pick cancelled"))
        _ = await pick.exitStatus()
        #expect(pick.objects.last?["cancelled"] as? Bool == true, "\(pick.objects)")
        await owner.close()
    }
}
