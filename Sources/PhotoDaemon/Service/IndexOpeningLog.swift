import Logging
import Store

/// The journal lines that say what opening the index had to do: a damaged index moved aside
/// (and where), permission decisions restored, a one-time conversion.
enum IndexOpeningLog {
    static func report(_ opening: OpeningReport, index: String, logger: Logger) {
        if let broken = opening.brokenPath {
            logger.error("""
                the index \(index) could not be used: \(opening.brokenReason ?? "it is damaged"). It was moved to \
                \(broken), where it stays for inspection, and a new index is built from the photos
                """)
        }
        if opening.appsRestored > 0 {
            logger.notice("restored \(opening.appsRestored) app permission records into the new index from \(index).apps.json")
        }
        if let problem = opening.backupProblem {
            logger.error("the app permission records are not restored: \(problem); apps ask again")
        } else if opening.brokenPath != nil, opening.appsRestored == 0 {
            logger.warning("no app permission records to restore (no backup beside the index)")
        }
        if let reason = opening.reserveReleased {
            logger.error("\(reason); it serves the index as it is and records what it missed once there is room")
        }
        if opening.convertedToIncrementalVacuum {
            logger.notice("the index now gives the space it frees back to the disk (converted once with VACUUM)")
        }
    }
}
