import Logging

/// Sets up swift-log for one of photod's programs run as a service: structured journal entries
/// when standard error is the journal, plain lines on standard error otherwise; either way, text
/// from apps, photos and paths is escaped and capped before it reaches a line (`LogText`).
public enum ServiceLogging {
    /// Bootstraps the logging system once and returns the program's logger, labelled `label`.
    public static func bootstrap(label: String, level: Logger.Level) -> Logger {
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
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}
