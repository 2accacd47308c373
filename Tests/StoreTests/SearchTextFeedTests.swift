import Dispatch
import Synchronization
import Testing
@testable import Store

/// The feed hands the writer every chunk in order, never reads more than its depth ahead, and
/// lets its producer go when the writer stops early.
@Suite struct SearchTextFeedTests {
    private static func rows(after: Int64, limit: Int, last: Int64) -> [SearchIndex.Row] {
        guard after < last else { return [] }
        return ((after + 1)...min(last, after + Int64(limit))).map { SearchIndex.Row(rowid: $0, fields: ["\($0)"]) }
    }

    @Test func everyRowArrivesInOrderAndTheProducerStaysWithinItsDepth() throws {
        let feed = SearchTextFeed(depth: 2)
        let reads = Atomic<Int>(0)
        let last = Int64(SearchTextFeed.chunkSize * 5 + 3)
        DispatchQueue.global().async {
            feed.produce(after: 0) { after, limit in
                reads.add(1, ordering: .sequentiallyConsistent)
                return Self.rows(after: after, limit: limit, last: last)
            }
        }
        var seen: [Int64] = []
        var taken = 0
        while case let chunk = try feed.next(), !chunk.isEmpty {
            taken += 1
            // A chunk handed over frees its room only as it is taken.
            #expect(reads.load(ordering: .sequentiallyConsistent) <= taken + 2)
            seen += chunk.map(\.rowid)
        }
        feed.stop()
        #expect(seen == Array(1...last))
    }

    @Test func aWriterThatStopsEarlyLetsTheProducerGo() throws {
        let feed = SearchTextFeed(depth: 1)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            feed.produce(after: 0) { after, limit in Self.rows(after: after, limit: limit, last: .max) }
            finished.signal()
        }
        #expect(try feed.next().count == SearchTextFeed.chunkSize)
        feed.stop()
        #expect(finished.wait(timeout: .now() + 10) == .success, "the producer returned")
    }

    @Test func aFailedReadReachesTheWriter() {
        struct Unreadable: Error {}
        let feed = SearchTextFeed()
        DispatchQueue.global().async { feed.produce(after: 0) { _, _ in throw Unreadable() } }
        #expect(throws: Unreadable.self) { try feed.next() }
        feed.stop()
    }
}
