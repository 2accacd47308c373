import Foundation

/// Checks `condition` every 20 ms until it holds or `timeout` passes; whether it held. Sleeps
/// between checks without holding a thread. The default of 60 s is generous on purpose: the
/// whole suite runs side by side on two cores.
func eventually(timeout: TimeInterval = 60, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
