import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// SQLite's memory is bounded: each connection's page cache has a fixed size, 16 MiB in all.
@Suite struct StoreMemoryTests {
    @Test func everyConnectionsPageCacheIsBounded() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let writer = try store.database.write { db in try db.integer("PRAGMA cache_size") }
        #expect(writer == -Int64(StoreDatabase.writerCacheKiB))
        for reader in store.database.readers {
            #expect(reader.lock.withLock { db in try? db.integer("PRAGMA cache_size") } == -Int64(StoreDatabase.readerCacheKiB))
        }
        #expect(StoreDatabase.writerCacheKiB + Store.readerCount * StoreDatabase.readerCacheKiB <= 16 << 10)
    }

    @Test func handingTheCachesBackKeepsEveryAnswer() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        var batch = WriteBatch()
        batch.inserts = (0..<200).map { photo("/lib/\($0).jpg", Int64($0), $0 % 2 == 0 ? "Lake" : "Sea") }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let before = try await store.searchPaths("lake")
        try await store.write { $0.releaseMemory() }
        await #expect(try store.searchPaths("lake") == before)
        await #expect(try store.read { try $0.totals() } == (assets: 200, groups: 2))
    }
}
