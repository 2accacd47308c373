import PhotoAPI
import Testing

@testable import PhotoCommands

/// How `photoctl status` words a polled folder's last pass.
@Suite struct PollPassTextTests {
    /// 2024-03-01T12:00:00Z.
    let noon = 1_709_294_400

    @Test func aPassSaysItsTimeFilesAndAge() {
        let pass = PollPass(ended: "2024-03-01T12:00:00Z", seconds: 0.42, files: 10_000)
        #expect(PollPassText.line("/srv/nas", interval: 30, pass: pass, now: noon + 12)
                == "/srv/nas: polling every 30 s; last pass 0.42 s over 10,000 files, 12 s ago")
    }

    @Test func oneFileIsOneFile() {
        let pass = PollPass(ended: "2024-03-01T12:00:00Z", seconds: 0.01, files: 1)
        #expect(PollPassText.line("/n", interval: 1, pass: pass, now: noon).hasSuffix("last pass 0.01 s over 1 file, 0 s ago"))
    }

    @Test func aPassOverBudgetSaysWhenTheNextComes() {
        let pass = PollPass(ended: "2024-03-01T12:00:00Z", seconds: 31.5, delayedInterval: 126)
        #expect(PollPassText.line("/srv/nas", interval: 120, pass: pass, now: noon + 5) == """
            /srv/nas: polling every 120 s; last pass 32 s, 5 s ago; next pass in 2 min (the last took over a quarter \
            of the interval)
            """)
        #expect(PollPassText.line("/n", interval: 120, pass: pass, now: noon + 200).hasSuffix("; next pass due now "
                + "(the last took over a quarter of the interval)"))
    }

    @Test(arguments: [(0.0, "0.00 s"), (0.004, "0.00 s"), (0.05, "0.05 s"), (1.5, "1.50 s"), (9.994, "9.99 s"),
                      (9.996, "10 s"), (125.4, "125 s")])
    func secondsAreToTheHundredthUnderTen(_ value: Double, _ text: String) {
        #expect(PollPassText.seconds(value) == text)
    }

    @Test func onlyPolledFoldersWithAPassHaveALine() {
        let pass = PollPass(ended: "2024-03-01T12:00:00Z", seconds: 0.1, files: 3)
        var nas = Root(path: "/srv/nas", state: .polling, assets: 3, pollInterval: 30, lastPass: pass)
        nas.mounts = [RootMount(path: "/srv/nas/usb", fileSystem: "ext4"),
                      RootMount(path: "/srv/nas/cloud", fileSystem: "fuse.rclone", pollInterval: 30, lastPass: pass)]
        let local = Root(path: "/home/ann/Pictures", state: .watching, assets: 5)
        let fresh = Root(path: "/srv/new", state: .polling, assets: 0, pollInterval: 30)
        #expect(PollPassText.lines([nas, local, fresh], now: noon + 1) == [
            "/srv/nas: polling every 30 s; last pass 0.10 s over 3 files, 1 s ago",
            "/srv/nas/cloud: polling every 30 s; last pass 0.10 s over 3 files, 1 s ago",
        ])
    }
}
