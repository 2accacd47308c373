import Synchronization

/// One page of a search, and whether it stopped at its row budget before the page was full.
public struct SearchPage: Sendable {
    /// The photos found, newest first.
    public var assets: [StoredAsset]
    /// The last photo examined when the page stopped at its row budget (`Store.searchRowBudget`)
    /// before it was full; the next page goes on after it. Nil when the page is complete.
    public var stoppedAfter: StoredAsset?

    /// Creates a page.
    public init(assets: [StoredAsset], stoppedAfter: StoredAsset? = nil) {
        self.assets = assets
        self.stoppedAfter = stoppedAfter
    }

    /// Photos one page examines at most by default: a scan that checks every photo's text (a
    /// query of one-character words, a bulk load under way, a limited app's selection) holds a
    /// reader for about a millisecond per hundred photos, so a page costs a reader tens of
    /// milliseconds at most, however large the library.
    public static let standardRowBudget = 5_000
}

/// Stops a search between rows when its caller goes away, and counts the photos it examined.
public final class SearchControl: Sendable {
    private let cancelled = Atomic(false)
    private let examined = Atomic(0)

    /// A control that is not cancelled and has examined nothing.
    public init() {}

    /// Asks the search to stop at its next row; it then throws `CancellationError`.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// The photos the search has examined so far (read from the index and checked against its words).
    public var rowsExamined: Int { examined.load(ordering: .relaxed) }

    /// Counts one photo examined; throws once cancelled.
    func examine() throws {
        try checkCancelled()
        examined.add(1, ordering: .relaxed)
    }

    /// Throws `CancellationError` once cancelled.
    func checkCancelled() throws {
        if isCancelled { throw CancellationError() }
    }
}
