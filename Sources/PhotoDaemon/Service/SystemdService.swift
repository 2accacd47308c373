import Logging
import PhotoAPI
import ServiceLifecycle
import Store
import Systemd

/// Keeps the service manager informed: a live `STATUS=` line ("Indexing 3,412 of 10,000
/// photos", then "Watching 10,000 photos in 52 groups"), `WATCHDOG=1` keep-alives, and
/// `STOPPING=1` when shutdown begins. Readiness is sent by the indexer when its first scan ends.
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let state: LibraryState
    let store: Store
    let logger: Logger

    func run() async throws {
        guard notifier.isActive else {
            // Nobody listens: stay in the group without work until shutdown.
            try? await gracefulShutdown()
            return
        }
        let watchdog = notifier.watchdogInterval()
        if let watchdog { logger.info("systemd watchdog on: keep-alive every \(watchdog / 2)") }
        let tick = min(.seconds(1), (watchdog ?? .seconds(2)) / 2)
        var shown = ""
        var failing = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            // A keep-alive only after a round trip through the index: if it hangs or keeps
            // failing, the pings stop and systemd restarts the daemon. One failed read (a lock
            // held past the busy timeout on a loaded machine) only skips a ping: ending here would
            // stop the whole daemon with status 0, which systemd does not restart.
            do {
                let line = try await statusLine()
                if failing { logger.notice("the index answers the status read again") }
                failing = false
                if line != shown {
                    notifier.status(line)
                    shown = line
                }
                if watchdog != nil { notifier.watchdog() }
            } catch {
                if failing {
                    logger.debug("the status read still fails: \(error)")
                } else {
                    logger.warning("reading the index for systemd's status failed: \(error); the watchdog ping waits")
                }
                failing = true
            }
            try? await Task.sleep(for: tick)
        }
        notifier.stopping(status: "Stopping: finishing the batch in flight")
    }

    /// The status line for READY=1; a failed read of the counts still lets readiness go out.
    func readyStatusLine() async -> String {
        (try? await statusLine()) ?? "Watching"
    }

    /// The status line for the current state.
    func statusLine() async throws -> String {
        // On the reserved lane: no app's queries on the shared readers can make the watchdog late.
        let totals = try await store.lane(.reserved).read { try $0.totals() }
        let summary = state.summary
        return Self.statusLine(state: summary.state, progress: summary.progress, assets: totals.assets,
                               groups: totals.groups, problems: summary.problems)
    }

    /// The words `systemctl status photod` shows.
    static func statusLine(state: DaemonState, progress: ScanProgress?, assets: Int, groups: Int,
                           problems: [String]) -> String {
        switch state {
        case .starting:
            return "Starting"
        case .scanning:
            guard let progress else { return "Indexing" }
            if let total = progress.total {
                return "Indexing \(grouped(progress.indexed)) of \(grouped(total)) photos"
            }
            return "Looking for photos: \(grouped(progress.found)) found"
        case .ready, .degraded:
            var line = "Watching \(grouped(assets)) photo\(assets == 1 ? "" : "s") in \(grouped(groups)) "
                + "group\(groups == 1 ? "" : "s")"
            if state == .degraded, let first = problems.first { line += "; degraded: \(first)" }
            return line
        }
    }

    /// 10000 as "10,000".
    static func grouped(_ number: Int) -> String { Thousands.grouped(number) }
}
