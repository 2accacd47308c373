import Foundation
import PhotoTestSupport

/// Checks `condition` every 20 ms until it holds or `timeout` passes; whether it held. Sleeps
/// between checks without holding a thread. The default of 60 s is generous on purpose: the
/// whole suite runs side by side on two cores.
func eventually(timeout: TimeInterval = 60, _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await pollUntil(timeout: timeout, condition)
}
