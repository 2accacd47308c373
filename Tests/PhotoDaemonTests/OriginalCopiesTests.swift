import Glibc
import PhotoTestSupport
import Posix
import Testing

@testable import PhotoDaemon

/// The ledger of sealed copies apps hold: within an app's and everyone's limits, counted back
/// only when the kernel says a copy is gone.
struct OriginalCopiesTests {
    /// A sealed memfd of `count` bytes, as photod makes a copy.
    static func copy(_ count: Int) throws -> Int32 {
        try #require(MemoryCopy.make(count, name: "original-copies-test"))
    }

    @Test func anAppHoldsAtMostItsCopiesUntilItLetsOneGo() throws {
        let ledger = OriginalCopies(perCaller: .init(copies: 2, bytes: 1 << 20), total: .init(copies: 8, bytes: 8 << 20))
        var held: [Int32] = []
        for _ in 0..<2 {
            let place = try #require(ledger.reserve("app:a", bytes: 1000))
            let descriptor = try Self.copy(1000)
            #expect(place.hold(descriptor))
            held.append(descriptor)
        }
        #expect(ledger.reserve("app:a", bytes: 1000) == nil, "a third copy is past the app's two")
        #expect(ledger.holding("app:a").copies == 2)
        #expect(ledger.reserve("app:b", bytes: 1000) != nil, "another app has its own share")

        // A duplicate the app kept holds the copy, as a descriptor passed to another process would.
        let kept = dup(held[0])
        close(held[0])
        #expect(ledger.reserve("app:a", bytes: 1000) == nil)
        close(kept)
        let again = try #require(ledger.reserve("app:a", bytes: 1000), "the copy is gone, so its place is free")
        again.release()
        close(held[1])
    }

    @Test func bytesAndEveryonesTotalAreLimitsToo() throws {
        let ledger = OriginalCopies(perCaller: .init(copies: 10, bytes: 3000), total: .init(copies: 3, bytes: 1 << 20))
        #expect(ledger.reserve("app:a", bytes: 3001) == nil, "one copy larger than the app's bytes")
        let places = try (0..<3).map { index in try #require(ledger.reserve("app:\(index)", bytes: 1000)) }
        #expect(ledger.reserve("app:d", bytes: 1) == nil, "all apps together hold three")
        places[0].release()
        #expect(ledger.reserve("app:d", bytes: 1) != nil, "a place given back unused is free again")
    }

    @Test func aCopyTheKernelWillNotWatchGivesItsPlaceBack() throws {
        let ledger = OriginalCopies(perCaller: .init(copies: 1, bytes: 1 << 20), total: .init(copies: 1, bytes: 1 << 20))
        let place = try #require(ledger.reserve("app:a", bytes: 10))
        #expect(!place.hold(-1))
        #expect(ledger.holding("app:a").copies == 0)
        #expect(ledger.reserve("app:a", bytes: 10) != nil)
    }
}
