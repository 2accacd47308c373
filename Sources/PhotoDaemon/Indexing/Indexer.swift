import Foundation
import Logging
import PhotoAPI
import Store

/// Runs reconciles one at a time (start-up, periodic, and `Rescan`), keeping `LibraryState` current.
actor Indexer {
    let roots: [LibraryRoot]
    private let scanner: Scanner
    private let state: LibraryState
    private let logger: Logger
    private var tail: Task<ScanReport, Error>?

    init(roots: [LibraryRoot], scanner: Scanner, state: LibraryState, logger: Logger) {
        self.roots = roots
        self.scanner = scanner
        self.state = state
        self.logger = logger
    }

    /// Reconciles `only` (or every root) after any reconcile already running has finished.
    func reconcile(only: LibraryRoot? = nil, reason: String) async throws -> ScanReport {
        let previous = tail
        let task = Task { [roots] in
            _ = try? await previous?.value
            return try await self.run(roots: only.map { [$0] } ?? roots, reason: reason)
        }
        tail = task
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func run(roots: [LibraryRoot], reason: String) async throws -> ScanReport {
        let started = ContinuousClock.now
        state.scanStarted()
        defer { state.scanFinished() }
        var total = ScanReport()
        for root in roots {
            guard let path = root.resolve() else {
                // Keep its assets: a folder that is unmounted or briefly gone must not lose ids.
                state.setRoot(root.configured, .missing,
                              problem: "root \(root.configured) is missing or not a folder; its assets are kept")
                logger.warning("root \(root.configured) is missing or not a folder: keeping its assets until it returns")
                continue
            }
            state.setRoot(root.configured, .scanning)
            let report = try await scanner.reconcile(root: path, progress: state.progress)
            state.setRoot(root.configured, state.idleRootState)
            total = total + report
        }
        let seconds = (ContinuousClock.now - started).seconds
        logger.info("""
            reconciled (\(reason)) in \(String(format: "%.2f", seconds)) s: \(total.scanned) files, \
            \(total.read) read, \(total.inserted) new, \(total.updated) updated, \(total.moved) moved, \
            \(total.removed) removed, \(total.unchanged) unchanged
            """)
        return total
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
