import Logging
import Systemd

/// Sets up swift-log for the daemon (see `ServiceLogging`: the journal under systemd, plain
/// escaped lines on standard error otherwise).
public enum DaemonLogging {
    /// Bootstraps the logging system once and returns the daemon's logger.
    public static func bootstrap(level: Logger.Level) -> Logger {
        ServiceLogging.bootstrap(label: "photod", level: level)
    }
}
