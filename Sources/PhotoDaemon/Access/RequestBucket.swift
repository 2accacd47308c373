#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One app's allowance of new requests, a token bucket: `capacity` requests at once, then one
/// more every `interval`.
///
/// Each new request puts a prompt before the owner and a line in the journal; an app that
/// connects, asks and hangs up in a loop would otherwise flood both. Joining a request already
/// pending costs nothing, so an app with several windows asking at once is never refused.
struct RequestBucket: Sendable, Equatable {
    /// Requests allowed in a burst.
    let capacity: Int
    /// Seconds for one token to come back.
    let interval: TimeInterval
    private var tokens: Double
    private var updated: Date?

    /// A full bucket.
    init(capacity: Int = AuthorizationLimits.requestBurst, interval: TimeInterval = AuthorizationLimits.requestInterval) {
        self.capacity = max(1, capacity)
        self.interval = max(0.001, interval)
        self.tokens = Double(self.capacity)
    }

    /// Takes one token at `now`: nil when one was there, else the whole seconds until one is.
    mutating func take(now: Date) -> Int? {
        refill(now: now)
        // The tolerance keeps a token earned in several refills (0.4 + 0.6) from falling short by a rounding.
        guard tokens >= 1 - 1e-9 else { return max(1, Int(((1 - tokens) * interval - 1e-9).rounded(.up))) }
        tokens = max(0, tokens - 1)
        return nil
    }

    /// Adds the tokens earned since the last look; a clock set back earns nothing, then or later.
    private mutating func refill(now: Date) {
        guard let last = updated else {
            updated = now
            return
        }
        let elapsed = now.timeIntervalSince(last)
        guard elapsed > 0 else { return }
        updated = now
        tokens = min(Double(capacity), tokens + elapsed / interval)
    }
}
