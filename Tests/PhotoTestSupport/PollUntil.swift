import Foundation

/// Checks `condition` every `interval` until it holds or `timeout` seconds pass, sleeping in
/// between without holding a thread; whether it held (checked once more at the end).
public func pollUntil(timeout: TimeInterval, every interval: Duration = .milliseconds(20),
                      _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
