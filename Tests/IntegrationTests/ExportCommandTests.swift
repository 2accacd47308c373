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

    @Test func renameKeepsTwoPhotosOfOneNameAndSaysSo() async throws {
        let daemon = try DaemonHarness()
        for name in ["2019/IMG_0001.jpg", "2020/IMG_0001.jpg", "2021/IMG_0001.jpg"] {
            try daemon.add(name, ThumbnailedPhoto.jpeg(name))
        }
        try await daemon.start()
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // One of the names is in the folder already.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/IMG_0001 (2).jpg"))
        let files = ["2019", "2020", "2021"].map { daemon.library + "/\($0)/IMG_0001.jpg" }

        let plain = try await daemon.photoctl(["export"] + files + [folder])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("add --rename to keep both"), "\(plain.stderr)")
        try FileManager.default.removeItem(atPath: folder + "/IMG_0001.jpg")

        let renamed = try await daemon.photoctl(["export", "--rename"] + files + [folder])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let lines = renamed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix("/out/IMG_0001.jpg"), "\(lines)")
        #expect(lines[1].hasSuffix("/out/IMG_0001 (3).jpg (renamed: \"IMG_0001.jpg\" was taken)"), "\(lines)")
        #expect(lines[2].hasSuffix("/out/IMG_0001 (4).jpg (renamed: \"IMG_0001.jpg\" was taken)"), "\(lines)")
        #expect(try fileBytes(folder + "/IMG_0001.jpg") == fileBytes(files[0]))
        #expect(try fileBytes(folder + "/IMG_0001 (3).jpg") == fileBytes(files[1]))
        #expect(try fileBytes(folder + "/IMG_0001 (4).jpg") == fileBytes(files[2]))
        #expect(try fileBytes(folder + "/IMG_0001 (2).jpg") == Array("mine".utf8), "the file already there is untouched")

        let both = try await daemon.photoctl(["export", "--rename", "--force", files[0], folder])
        #expect(both.status == 2 && both.stderr.contains("choose one"), "\(both.stderr)")
    }
}
