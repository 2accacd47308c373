/// Checks `condition` every `interval` until it holds or `seconds` pass, sleeping in between
/// without holding a thread; whether it held (checked once more at the end). The default of
/// 60 s only bounds a test that fails: the whole suite runs side by side on two cores. A caller
/// that checks the outcome itself afterwards may drop the result.
@discardableResult
public func eventually(within seconds: Double = 60, every interval: Duration = .milliseconds(20),
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
