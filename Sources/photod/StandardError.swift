import Systemd

/// Writes one line to standard error.
func printError(_ line: String) {
    StandardErrorLogHandler.writeToStandardError(line + "\n")
}
