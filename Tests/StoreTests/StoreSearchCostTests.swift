import Foundation
import PhotoTestSupport
import Synchronization
import Testing
import SQLite
@testable import Store

/// What a search may cost: a row budget per page, cancellation between photos, and a reserved
/// lane that the owner's calls and the watchdog read on, which no flood of searches can occupy.
@Suite struct StoreSearchCostTests {
    /// `count` photos, every `every`th of them described "quiz" (it holds both q and z).
    private func library(_ count: Int, quizEvery every: Int, budget: Int) async throws -> (Store, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("state/index.sqlite"), searchRowBudget: budget)
        var batch = WriteBatch()
        batch.inserts = (1...count).map { n in
            photo("/lib/\(n).jpg", Int64(n), n % every == 0 ? "quiz \(n)" : "photo \(n)")
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        return (store, dir)
    }

    @Test func aOneLetterSearchStopsAtItsRowBudgetAndItsPagesGoOnWhereItStopped() async throws {
        let (store, dir) = try await library(300, quizEvery: 7, budget: 50)
        defer { withExtendedLifetime(dir) {} }
        let query = try #require(SearchQuery("q z"))
        var found: [String] = []
        var position: StorePosition?
        var pages = 0
        repeat {
            let control = SearchControl()
            let page = try await store.searchPage(query, groupKey: nil, after: position, limit: 100, control: control)
            #expect(control.rowsExamined <= 50, "a page examines at most its budget")
            found += page.assets.map { $0.path.description }
            let last = page.stoppedAfter ?? (page.assets.count == 100 ? page.assets.last : nil)
            position = last.map { StorePosition(value: .integer($0.content.takenNs ?? $0.stamp.mtimeNs), id: $0.id) }
            pages += 1
        } while position != nil && pages < 100
        // 300 photos at 50 a page: 6 stopped pages, each with what it found, and then one empty.
        #expect(pages >= 6)
        let expected = stride(from: 294, through: 7, by: -7).map { "/lib/\($0).jpg" }
        #expect(found == expected, "every match once, newest first, across the stopped pages")
    }

    @Test func aSearchWhoseCallerWentAwayExaminesNothingMore() async throws {
        let (store, dir) = try await library(300, quizEvery: 7, budget: 10_000)
        defer { withExtendedLifetime(dir) {} }
        let gate = ReaderGate()
        let blockers = gate.occupySharedReaders(of: store)
        try await gate.waitUntilEntered(Store.readerCount)
        let control = SearchControl()
        let query = try #require(SearchQuery("q z"))
        let search = Task { try await store.searchPage(query, groupKey: nil, after: nil, limit: 1000, control: control) }
        search.cancel()
        gate.release()
        for blocker in blockers { try await blocker.value }
        await #expect(throws: CancellationError.self) { try await search.value }
        #expect(control.rowsExamined == 0, "the search stopped before its first photo")
        // The same search, not cancelled, examines every photo: the count above is the cancellation's doing.
        let whole = SearchControl()
        _ = try await store.searchPage(query, groupKey: nil, after: nil, limit: 1000, control: whole)
        #expect(whole.rowsExamined == 300)
    }

    @Test func aSearchCancelledWhileItRunsStopsBetweenPhotos() async throws {
        let (store, dir) = try await library(300, quizEvery: 7, budget: 10_000)
        defer { withExtendedLifetime(dir) {} }
        let control = SearchControl()
        control.cancel()
        let query = try #require(SearchQuery("q z"))
        // The database call itself, past the store's entry check: the plan's row loop must see it.
        let error = #expect(throws: CancellationError.self) {
            try store.database.read { db in
                try SearchPlan(groupKey: nil, position: nil, limit: 1000, words: query.words, budget: 10_000,
                               control: control).rows(db, .scan(selection: nil, ordered: true))
            }
        }
        #expect(error != nil)
        #expect(control.rowsExamined == 0)
    }

    @Test func theReservedLaneAnswersWhileAFloodOfSearchesHoldsEverySharedReader() async throws {
        let (store, dir) = try await library(300, quizEvery: 7, budget: 10_000)
        defer { withExtendedLifetime(dir) {} }
        let gate = ReaderGate()
        // Both shared readers held inside a read, as two long searches would hold them, and a
        // flood of one-letter searches queued behind them.
        let blockers = gate.occupySharedReaders(of: store)
        try await gate.waitUntilEntered(Store.readerCount)
        let query = try #require(SearchQuery("q z"))
        let finished = Counter()
        let flood = (0..<8).map { _ in
            Task {
                let page = try await store.searchPage(query, groupKey: nil, after: nil, limit: 1000)
                finished.count.add(1, ordering: .relaxed)
                return page
            }
        }
        let sharedTotals = Task {
            let totals = try await store.read { try $0.totals() }
            finished.count.add(1, ordering: .relaxed)
            return totals
        }
        // The owner's totals, on the reserved lane, completes while every flood query still waits
        // (a bounded wait, so that a lane the flood holds fails the test instead of hanging it).
        let totals = try await gate.within(seconds: 20) { try await store.lane(.reserved).read { try $0.totals() } }
        #expect(totals.assets == 300)
        #expect(finished.count.load(ordering: .relaxed) == 0, "nothing on the shared lane got through meanwhile")
        let owner = try await store.lane(.reserved).searchPage(query, groupKey: nil, after: nil, limit: 1000)
        #expect(owner.assets.count == 42, "the owner's own search runs on its lane too")
        #expect(finished.count.load(ordering: .relaxed) == 0)
        gate.release()
        for blocker in blockers { try await blocker.value }
        for query in flood { #expect(try await query.value.assets.count == 42) }
        #expect(try await sharedTotals.value.assets == 300)
    }
}

/// Holds the store's shared reader connections inside a read until released, standing for
/// searches that take long; the threads it blocks are the store's own, never Swift's.
private final class ReaderGate: Sendable {
    private let entered = Atomic(0)
    private let open = DispatchSemaphore(value: 0)

    /// One blocking read per shared reader thread.
    func occupySharedReaders(of store: Store) -> [Task<Void, any Error>] {
        (0..<Store.readerCount).map { _ in
            Task {
                try await store.read { [self] database in
                    try database.read { _ in
                        entered.add(1, ordering: .relaxed)
                        open.wait()
                    }
                }
            }
        }
    }

    /// Returns once `count` reads are inside the gate.
    func waitUntilEntered(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while entered.load(ordering: .relaxed) < count {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// `body`'s result, or the gate opened and an error once `seconds` have passed without one.
    func within<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                release()
                throw GateTimeout()
            }
            return result
        }
    }

    /// Lets every blocked read go on.
    func release() {
        for _ in 0..<Store.readerCount { open.signal() }
    }
}

/// The call did not complete while the gate was closed.
private struct GateTimeout: Error {}

/// A count shared with tasks.
private final class Counter: Sendable {
    let count = Atomic(0)

    @Test func aProgressHandlerStopsOneEndlessStepAndIsGoneAfterwards() throws {
        let dir = try TemporaryDirectory()
        let db = try SQLiteConnection(path: dir.file("steps.sqlite"), create: true)
        // One step that never ends by itself: no check between rows would ever run.
        let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
        let asked = Atomic(0)
        #expect {
            try db.interruptible(when: { asked.add(1, ordering: .relaxed).newValue >= 3 }, every: 1000) {
                _ = try db.integer(endless)
            }
        } throws: { error in
            (error as? SQLiteError)?.isInterrupted == true
        }
        #expect(asked.load(ordering: .relaxed) == 3)
        // Outside it, statements run to their end again.
        #expect(try db.integer("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000) "
                               + "SELECT count(*) FROM n") == 100_000)
        #expect(asked.load(ordering: .relaxed) == 3)
    }
}
