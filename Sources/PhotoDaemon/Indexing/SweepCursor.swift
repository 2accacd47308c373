/// Where a reconcile's sweep of the index is (`ReconcilePlan.sweep`): not started, reading a
/// page, or after a path; one page is read at a time.
struct SweepCursor {
    private var started = false
    private var reading = false
    private var ended = false
    private var after: [UInt8]?

    /// The sweep begins: its first page is the next.
    mutating func start() { started = true }

    /// Where the next page starts (nil inside: from the first row), when one is to be read now;
    /// the cursor then waits for `read(after:ended:)`.
    mutating func next() -> [UInt8]?? {
        guard started, !reading, !ended else { return nil }
        reading = true
        return .some(after)
    }

    /// A page was read up to `after`; `ended`: it was the last.
    mutating func read(after: [UInt8]?, ended: Bool) {
        reading = false
        self.after = after
        self.ended = ended
    }
}
