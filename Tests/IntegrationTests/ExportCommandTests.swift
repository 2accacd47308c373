import Foundation
import PhotoTestSupport
import Testing

/// `photoctl export` against the real photod: originals copied through passed descriptors.
@Suite(.serialized) struct ExportCommandTests {
    /// Modification times in the past, so a copy that did not take them would show.
    private static let aTime = Date(timeIntervalSince1970: 1_000_000_000.25)
    private static let bTime = Date(timeIntervalSince1970: 1_200_000_000.5)

    private func daemonWithTwoPhotos() async throws -> (DaemonHarness, [String: String]) {
        let daemon = try DaemonHarness()
        for (name, time) in [("a.jpg", Self.aTime), ("sub/b.jpg", Self.bTime)] {
            let path = try daemon.add(name, ThumbnailedPhoto.jpeg(name))
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
        }
        try await daemon.start()
        return await (daemon, try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library))
    }

    private func modified(_ path: String) -> timespec {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mtim
    }

    @Test func copiesAreExactAndKeepTheOriginalsTimes() async throws {
        let (daemon, ids) = try await daemonWithTwoPhotos()
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try await daemon.photoctl(["export", try #require(ids["a.jpg"]), try #require(ids["sub/b.jpg"]), folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 2)
        for (name, original) in [("a.jpg", "a.jpg"), ("b.jpg", "sub/b.jpg")] {
            let copy = folder + "/" + name
            #expect(try fileBytes(copy) == fileBytes(daemon.library + "/" + original))
            let (copied, source) = (modified(copy), modified(daemon.library + "/" + original))
            #expect(copied.tv_sec == source.tv_sec && copied.tv_nsec == source.tv_nsec, "\(name) keeps its mtime")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a.jpg", "b.jpg"])
    }

    @Test func aSecondExportLeavesTheFilesUnlessForced() async throws {
        let (daemon, ids) = try await daemonWithTwoPhotos()
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let id = try #require(ids["a.jpg"])
        await #expect(try daemon.photoctl(["export", id, folder]).status == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/a.jpg"))
        let again = try await daemon.photoctl(["export", id, folder])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))
        #expect(try fileBytes(folder + "/a.jpg") == Array("mine".utf8))
        let forced = try await daemon.photoctl(["export", id, folder, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try fileBytes(folder + "/a.jpg") == fileBytes(daemon.library + "/a.jpg"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.jpg"], "no temporary file stays")
    }

    @Test func aBadIdFailsAtTheEndAfterTheGoodOnesAreExported() async throws {
        let (daemon, ids) = try await daemonWithTwoPhotos()
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try await daemon.photoctl(["export", "00000000deadbeef", try #require(ids["a.jpg"]), folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("00000000deadbeef"))
        #expect(try fileBytes(folder + "/a.jpg") == fileBytes(daemon.library + "/a.jpg"))
    }

    @Test func theFolderMustExistAndBeAFolder() async throws {
        let (daemon, ids) = try await daemonWithTwoPhotos()
        let id = try #require(ids["a.jpg"])
        for folder in [daemon.dir.file("missing"), daemon.library + "/a.jpg"] {
            let result = try await daemon.photoctl(["export", id, folder])
            #expect(result.status == 2)
            #expect(result.stderr.contains(folder))
        }
    }
}
