import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Paths stored as a stem and the rest keep byte order, whatever order folders appear and go in.
@Suite struct PathStemsTests {
    /// Files of a folder among its subfolders ("b0.jpg" sorts after "b/", "a.jpg" before it),
    /// a deep folder written before its parents, a name that is not UTF-8.
    private static let paths: [String] = [
        "/lib/b/x/deep.jpg", "/lib/b/y.jpg", "/lib/b0.jpg", "/lib/a.jpg", "/lib/b-c.jpg", "/lib/c/z.jpg",
        "/lib2/q.jpg", "/li.jpg", "/lib/b/x/y/z/w.jpg",
    ]

    private func library(inOneBatch: Bool = false) async throws -> (Store, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        // One batch per photo: each may add a stem or merge deeper ones into a new one. In one
        // batch, the writer places each path after the stem it placed last (which a merge may
        // just have deleted, or which may not hold the next path).
        let inserts = Self.paths.enumerated().map { insert($1, Int64($0), "G") }
        for part in inOneBatch ? [inserts] : inserts.map({ [$0] }) {
            var batch = WriteBatch()
            batch.inserts = part
            _ = try await store.write { [batch] in try $0.apply(batch) }
        }
        var odd = WriteBatch()
        odd.inserts = [WriteBatch.Insert(path: PathBytes(Array("/lib/b/".utf8) + [0xFF, 0x2E, 0x6A]), stamp: stamp(99), content: content("G"))]
        _ = try await store.write { [odd] in try $0.apply(odd) }
        return (store, dir)
    }

    private var sorted: [PathBytes] {
        (Self.paths.map { PathBytes($0) } + [PathBytes(Array("/lib/b/".utf8) + [0xFF, 0x2E, 0x6A])])
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// No stem in use is a prefix of another, and every stem is in use.
    private func checkStems(_ store: Store) throws {
        let (stems, unused) = try store.database.read { db -> ([[UInt8]], Int64?) in
            let statement = try db.statement("SELECT path FROM folders ORDER BY path")
            var stems: [[UInt8]] = []
            while try statement.step() { stems.append(statement.blob(0)) }
            return (stems, try db.integer("SELECT count(*) FROM folders f WHERE NOT EXISTS (SELECT 1 FROM assets WHERE folder = f.id)"))
        }
        for stem in stems {
            #expect(!stems.contains { $0 != stem && $0.starts(with: stem) }, "\(String(decoding: stem, as: UTF8.self))")
        }
        #expect(unused == 0)
    }

    @Test(arguments: [false, true])
    func everyReadInPathOrderIsByteOrder(inOneBatch: Bool) async throws {
        let (store, dir) = try await library(inOneBatch: inOneBatch)
        defer { withExtendedLifetime(dir) {} }
        try checkStems(store)
        for descending in [false, true] {
            var seen: [PathBytes] = []
            var position: StorePosition?
            while true {
                let page = try await store.read { [position] in
                    try $0.assets(StoreListing(sort: .path, descending: descending), after: position, limit: 3)
                }
                guard let last = page.last else { break }
                seen += page.map(\.path)
                position = StorePosition(value: .path(last.path), id: last.id)
            }
            #expect(seen == (descending ? sorted.reversed() : sorted))
        }
        var paged: [PathBytes] = []
        var after: PathBytes?
        while true {
            let page = try await store.read { [after] in try $0.indexedFiles(under: PathBytes("/lib"), after: after, limit: 2) }
            guard let last = page.last else { break }
            paged += page.map(\.path)
            after = last.path
        }
        #expect(paged == sorted.filter { $0.bytes.starts(with: Array("/lib/".utf8)) })
        let siblings = try await store.read { try $0.indexedFiles(withPrefix: PathBytes("/lib/b")) }.map(\.path)
        #expect(Set(siblings) == Set(sorted.filter { $0.bytes.starts(with: Array("/lib/b".utf8)) }))
        await #expect(try store.read { try $0.assetCount(under: PathBytes("/lib/b")) } == 4, "not b0.jpg nor b-c.jpg")
        await #expect(try store.read { try $0.assets(paths: sorted) }.count == sorted.count)
    }

    @Test func aPagedReadFromAPathStartsAtItIncluded() async throws {
        let (store, dir) = try await library()
        defer { withExtendedLifetime(dir) {} }
        let under = sorted.filter { $0.bytes.starts(with: Array("/lib/".utf8)) }
        // From a file's own path (inside a stem), from a folder's key (between stems), from
        // before every path and past them all: what follows in path order, that path included.
        for from in ["/lib/b/y.jpg", "/lib/b/", "/lib/b0.jpg", "/lib/", "/lib/c/", "/lib/zz"].map({ PathBytes($0) }) {
            var paged: [PathBytes] = []
            var after: PathBytes?
            while true {
                let page = try await store.read { [after] in
                    try $0.indexedFiles(under: PathBytes("/lib"), from: from, after: after, limit: 2)
                }
                guard let last = page.last else { break }
                paged += page.map(\.path)
                after = last.path
            }
            #expect(paged == under.filter { !$0.bytes.lexicographicallyPrecedes(from.bytes) }, "\(from)")
        }
    }

    @Test func stemsFollowMovesAndRemovals() async throws {
        let (store, dir) = try await library()
        defer { withExtendedLifetime(dir) {} }
        let files = try await store.read { try $0.indexedFiles(under: PathBytes("/")) }
        let li = try #require(files.first { $0.path == PathBytes("/li.jpg") })
        let deep = try #require(files.first { $0.path == PathBytes("/lib/b/x/y/z/w.jpg") })
        var batch = WriteBatch()
        batch.removals = [li.id]
        batch.updates = [WriteBatch.Update(id: deep.id, path: PathBytes("/elsewhere/w.jpg"), stamp: deep.stamp, content: nil)]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        try checkStems(store)
        await #expect(try store.read { try $0.indexedFile(at: PathBytes("/elsewhere/w.jpg")) }?.id == deep.id)
        await #expect(try store.read { try $0.indexedFile(at: PathBytes("/lib/b/x/y/z/w.jpg")) } == nil)
        let all = try await store.read { try $0.assets(groupKey: nil, sort: .path, after: nil, limit: 100) }.map(\.path)
        #expect(all == all.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) })
        #expect(all.count == sorted.count - 1)
    }
}
