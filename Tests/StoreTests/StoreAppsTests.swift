import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// App records are kept per (uid, app id), deleted on request, and migrated from the id-only table.
@Suite struct StoreAppsTests {
    @Test func theSameAppIdOfTwoUsersIsTwoRecords() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: "app:org.gnome.Photos", record: Data("mine".utf8))) }
        try await store.write { try $0.saveApp(StoredApp(uid: 1001, id: "app:org.gnome.Photos", record: Data("theirs".utf8))) }
        try await store.write { try $0.saveApp(StoredApp(uid: 1001, id: "app:org.gnome.Photos", record: Data("theirs again".utf8))) }
        await #expect(try store.read { try $0.apps() } == [
            StoredApp(uid: 1000, id: "app:org.gnome.Photos", record: Data("mine".utf8)),
            StoredApp(uid: 1001, id: "app:org.gnome.Photos", record: Data("theirs again".utf8)),
        ])
    }

    @Test func deletingOneUsersRecordLeavesTheOthers() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: "exe:/usr/bin/eog", record: Data("a".utf8))) }
        try await store.write { try $0.saveApp(StoredApp(uid: 1001, id: "exe:/usr/bin/eog", record: Data("b".utf8))) }
        await #expect(try store.write { try $0.deleteApp(uid: 1001, id: "exe:/usr/bin/eog") })
        await #expect(try !store.write { try $0.deleteApp(uid: 1001, id: "exe:/usr/bin/eog") }, "nothing left to delete")
        let reopened = try Store(path: dir.file("index.sqlite"))
        await #expect(try reopened.read { try $0.apps() } == [StoredApp(uid: 1000, id: "exe:/usr/bin/eog", record: Data("a".utf8))])
    }

    @Test func recordsFromBeforeMigrationFiveBelongToTheDaemonsUser() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        do {
            let old = try SQLiteConnection(path: path, create: true)
            try old.execute("PRAGMA journal_mode = WAL")
            for sql in Schema.migrations.prefix(4) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = 4")
            try old.statement("INSERT INTO apps(id, record) VALUES (?, ?)")
                .bind([.text("script:/usr/bin/bash:/home/ann/bin/calendar.sh"), .blob(Array("old".utf8))]).run()
        }
        let store = try Store(path: path)
        await #expect(try store.read { try $0.apps() } == [
            StoredApp(uid: getuid(), id: "script:/usr/bin/bash:/home/ann/bin/calendar.sh", record: Data("old".utf8)),
        ])
        // Another user's record with the same id can now sit beside it.
        try await store.write { try $0.saveApp(StoredApp(uid: getuid() + 1, id: "script:/usr/bin/bash:/home/ann/bin/calendar.sh",
                                    record: Data("new".utf8))) }
        await #expect(try store.read { try $0.apps() }.count == 2)
    }
}
