import Logging

/// Sets up swift-log for the daemon: plain lines on standard error.
public enum DaemonLogging {
    /// Bootstraps the logging system once and returns the daemon's logger.
    public static func bootstrap(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "photod")
        logger.logLevel = level
        return logger
    }
}
