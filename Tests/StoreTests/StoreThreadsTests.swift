import Foundation
import PhotoTestSupport
import SQLite
import Synchronization
import Testing
@testable import Store

/// The store's own threads and its rows read by column name.
@Suite struct StoreThreadsTests {
    @Test func rowsAreReadByColumnNameWhateverOrderAQuerySelectsThem() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 7, "Beach")]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let reversed = try store.database.read { db in
            let statement = try db.statement("SELECT sidecar, mtime_ns, size, inode, device FROM assets")
            let columns = try StampColumns(statement)
            _ = try statement.step()
            return columns.decode(statement)
        }
        #expect(reversed == stamp(7))
    }

    @Test func aColumnTheQueryLacksIsAnErrorNotAShiftedValue() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        #expect(throws: SQLiteError.self) {
            try store.database.read { db in
                _ = try StampColumns(try db.statement("SELECT device, inode, size, mtime_ns FROM assets"))
            }
        }
    }

    @Test func queuedWritesReachTheIndexInTheOrderTheyWereQueued() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        let failures = Failures()
        for n in 0..<200 {
            store.enqueueSaveApp(StoredApp(uid: 1000, id: "exe:/usr/bin/app", record: Data("\(n)".utf8))) { result in
                if case .failure = result { failures.count.withLock { $0 += 1 } }
            }
        }
        try await store.settled()
        let apps = try await store.read { try $0.apps() }
        #expect(apps.map { String(decoding: $0.record, as: UTF8.self) } == ["199"])
        #expect(failures.count.withLock { $0 } == 0)
    }

    /// A write never runs on its caller's thread, which may be one of Swift's few concurrency
    /// threads: it runs on the store's writer (where `onCommit` hears it).
    @Test func aWriteRunsOnTheStoresOwnThreadNotTheCallers() async throws {
        let dir = try TemporaryDirectory()
        let committedOn = Mutex<pthread_t?>(nil)
        let store = try Store(path: dir.file("state/index.sqlite"), onCommit: { _ in
            committedOn.withLock { $0 = pthread_self() }
        })
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach")]
        let caller = pthread_self()
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let writer = try #require(committedOn.withLock { $0 })
        #expect(pthread_equal(writer, caller) == 0)
    }

    @Test func aClosedStoreRefusesWorkWithAClearError() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        #expect(try await store.read { try $0.totals() }.assets == 0)
        await store.close()
        let error = await #expect(throws: StoreError.self) { try await store.read { try $0.totals() } }
        #expect(error.map { "\($0)" } == "the index is closed: photod is stopping")
    }
}

/// Counts failed writes from the writer thread.
private final class Failures: Sendable {
    let count = Mutex(0)
}
