import Logging
import Systemd

/// Sets up swift-log for the daemon: structured journal entries when standard error is the
/// journal (a systemd service), plain lines on standard error otherwise; either way, text from
/// apps, photos and paths is escaped and capped before it reaches a line (`LogText`).
public enum DaemonLogging {
    /// Bootstraps the logging system once and returns the daemon's logger.
    public static func bootstrap(level: Logger.Level) -> Logger {
        let journal = JournalLogHandler.standardErrorIsJournal()
        LoggingSystem.bootstrap { label in
            if journal {
                var handler = JournalLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            var handler = StandardErrorLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "photod")
        logger.logLevel = level
        return logger
    }
}
