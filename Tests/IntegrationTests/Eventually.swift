import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` passes; whether it held. The
/// default of 60 s is generous on purpose: five test processes share two cores.
func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
