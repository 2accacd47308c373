/// Whom a photoctl process acts for, as it tells photod through its process name
/// (`/proc/PID/comm`, which only the process itself can set).
///
/// photoctl sets it after parsing its own command line, before it connects, so photod never has
/// to guess from the arguments (where `--socket request` or `--service-user photod` once passed
/// for the command). Only `owner` lets photoctl act as the owner; any other name, or none,
/// makes photod treat it as the program that ran it, so the name can only lower what it may do.
public enum PhotoctlRole: String, Sendable, CaseIterable {
    /// The owner's own command: sees everything and answers requests.
    case owner = "photoctl-owner"
    /// `photoctl request` and `photoctl --as-app`: acts as the program that ran photoctl.
    case app = "photoctl-app"
}
