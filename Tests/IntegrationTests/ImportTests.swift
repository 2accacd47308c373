import Foundation
import PhotoTestSupport
import Testing

/// Apps add photos: add-only access asked and granted through photoctl, the photo passed by
/// its bytes (and by descriptor, where the server takes one), refusals that keep nothing, and
/// a limited app's import joining its selection — all against the real photod.
@Suite(.serialized)
struct ImportTests {
    /// Everything under the library's Imported folder.
    static func imported(_ daemon: DaemonHarness) -> [String] {
        (FileManager.default.enumerator(atPath: daemon.library + "/Imported")?.allObjects as? [String] ?? []).sorted()
    }

    @Test func anAddOnlyAppAsksIsAllowedAddsAPhotoAndStillReadsNothing() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("old/a.jpg", JPEGFixture.make(exif: ExifFixture(description: "Beach")))
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        let id = try await app.appID

        // Not yet allowed: refused, and told how to ask.
        let photo = try daemon.dir.write("meme.jpg", JPEGFixture.make(exif: ExifFixture(description: "Memes",
                                                                                             dateTimeOriginal: "2021:07:04 10:30:00")))
        let refused = try await app.importBytes(photo, name: "meme.jpg")
        #expect(refused.varlinkError == "io.photod.Library.AuthorizationRequired", "\(refused)")
        #expect((refused.replyParameters["hint"] as? String)?.contains("--level add") == true, "\(refused)")

        // It asks to add; the owner sees the add-only request and allows only that.
        let request = try StreamingProcess("/usr/bin/env", ["python3", app.script, daemon.socket, "request",
                                                            "to save your memes", "addOnly"],
                                           directory: daemon.dir, name: "request")
        defer { request.end() }
        #expect(await request.wait { $0.objects.contains { ($0["parameters"] as? [String: Any])?["pending"] as? Bool == true } })
        let listed = try await daemon.photoctl(["permissions", "list"])
        #expect(listed.stdout.contains("ADD ONLY"), "\(listed.stdout)")
        #expect(listed.stdout.contains("asked"), "\(listed.stdout)")
        let allowed = try await daemon.photoctl(["permissions", "allow", id, "--level", "add"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("add photos only: authorized"), "\(allowed.stdout)")
        #expect(await request.wait { $0.objects.last?.replyParameters["status"] as? String == "authorized" })

        // Now it adds; the reply comes with the photo in the index.
        let reply = try await app.importBytes(photo, name: "meme.jpg")
        #expect(reply.varlinkError == nil, "\(reply)")
        let path = try #require(reply.replyParameters["path"] as? String)
        #expect(path == daemon.library + "/Imported/2021/07/meme.jpg")
        #expect(reply.replyParameters["group"] as? String == "Memes")
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: photo))
        let owner = try await daemon.photoctlJSON(["show", path])
        #expect((owner["assets"] as? [[String: Any]])?.first?["id"] as? String == reply.replyParameters["id"] as? String,
                "\(owner)")

        // It reads nothing, not even its own photo.
        let listing = try await app.call("io.photod.Library.ListAssets")
        #expect(listing.varlinkError == "io.photod.Library.AuthorizationRequired", "\(listing)")
        let status = try await app.call("io.photod.Authorization.Status", #"{"level": "addOnly"}"#)
        #expect(status.replyParameters["status"] as? String == "authorized", "\(status)")
        #expect((status.replyParameters["app"] as? [String: Any])?["status"] as? String == "notDetermined")
    }

    @Test func anAppPassesThePhotosDescriptorWithSendFds() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--level", "add"])
        let photo = try daemon.dir.write("IMG_0001.JPG", JPEGFixture.make(exif: ExifFixture(
            description: "Old text", dateTimeOriginal: "2019:05:01 09:00:00")))
        let reply = try await app.importFile(photo, name: "IMG_0001.JPG", description: "Harbour")
        #expect(reply.varlinkError == nil, "\(reply)")
        #expect(reply.replyParameters["path"] as? String == daemon.library + "/Imported/2019/05/IMG_0001.JPG")
        #expect(reply.replyParameters["group"] as? String == "Harbour", "the description was written on the way in")
        // The same name again is numbered, never written over.
        let again = try await app.importFile(photo, name: "IMG_0001.JPG")
        #expect(again.replyParameters["path"] as? String == daemon.library + "/Imported/2019/05/IMG_0001 (2).JPG")
        #expect(FileManager.default.contents(atPath: daemon.library + "/Imported/2019/05/IMG_0001 (2).JPG")
                == FileManager.default.contents(atPath: photo), "the bytes are kept exactly")
    }

    @Test func photoctlImportAddsFilesIntoTheImportFolderOrAnotherInARoot() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let first = try daemon.dir.write("in/a.jpg", JPEGFixture.make(exif: ExifFixture(
            description: "Beach", dateTimeOriginal: "2020:01:02 03:04:05")))
        let second = try daemon.dir.write("in/b.jpg", JPEGFixture.make(exif: ExifFixture(description: "Hike")))
        let junk = try daemon.dir.write("in/notes.txt", Array("not a photo".utf8))
        let result = try await daemon.photoctl(["import", first, junk, second, "--description", "Trip"])
        #expect(result.status == 1, "one file was refused: \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("NotAnImage"), "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout)")
        #expect(lines.first?.hasSuffix(daemon.library + "/Imported/2020/01/a.jpg") == true, "\(result.stdout)")
        let groups = try await daemon.photoctl(["groups"])
        #expect(groups.stdout.contains("Trip"), "\(groups.stdout)")
        let chosen = try await daemon.photoctl(["import", "--to", daemon.library + "/chosen", first])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains(daemon.library + "/chosen/a.jpg"), "\(chosen.stdout)")
        let outside = try await daemon.photoctl(["import", "--to", daemon.dir.file("elsewhere"), first])
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("is not a root of the library"), "\(outside.stderr)")
    }

    @Test func refusedImportsKeepNothingAndSayWhy() async throws {
        let daemon = try DaemonHarness(settings: "[import]\nmax_bytes = 4096", trusted: [])
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--level", "add"])

        let script = try daemon.dir.write("not-a-photo.jpg", Array("#!/bin/sh\necho hi\n".utf8))
        let notAnImage = try await app.importBytes(script, name: "x.jpg")
        #expect(notAnImage.varlinkError == "io.photod.Library.NotAnImage", "\(notAnImage)")
        let big = try daemon.dir.write("big.jpg", JPEGFixture.make(exif: ExifFixture(description: "Big"))
                                       + Array(repeating: 0, count: 8192))
        let tooLarge = try await app.importBytes(big, name: "big.jpg")
        #expect(tooLarge.varlinkError == "io.photod.Library.TooLarge", "\(tooLarge)")
        #expect(tooLarge.replyParameters["limit"] as? Int == 4096)
        let neither = try await app.call("io.photod.Library.Import", #"{"name": "x.jpg"}"#)
        #expect(neither.varlinkError == "io.photod.Library.FileDescriptorsRequired", "\(neither)")
        #expect(Self.imported(daemon).filter { !$0.hasPrefix(".") }.allSatisfy { !$0.contains(".") },
                "nothing but folders is left: \(Self.imported(daemon))")
    }

    @Test func aPhotoThatCannotBeWrittenIsImportFailedNamingWhy() async throws {
        let daemon = try DaemonHarness(trusted: [])
        // A file where the import folder would be made.
        try daemon.add("Imported", Array("in the way".utf8))
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--level", "add"])
        let photo = try daemon.dir.write("a.jpg", JPEGFixture.make(exif: ExifFixture(description: "A")))
        let reply = try await app.importBytes(photo, name: "a.jpg")
        #expect(reply.varlinkError == "io.photod.Library.ImportFailed", "\(reply)")
        #expect((reply.replyParameters["reason"] as? String)?.contains("import folder") == true, "\(reply)")
        #expect(try String(contentsOfFile: daemon.library + "/Imported", encoding: .utf8) == "in the way")
    }

    @Test func aLimitedAppsImportJoinsItsSelection() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach/a.jpg", JPEGFixture.make(exif: ExifFixture(description: "Beach")))
        try daemon.add("hike/b.jpg", JPEGFixture.make(exif: ExifFixture(description: "Hike")))
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        let allowed = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--group", "Beach"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let photo = try daemon.dir.write("new.jpg", JPEGFixture.make(exif: ExifFixture(description: "Harbour")))
        let reply = try await app.importBytes(photo, name: "harbour.jpg")
        let id = try #require(reply.replyParameters["id"] as? String, "\(reply)")
        let seen = try await app.call("io.photod.Library.GetAssets", #"{"ids": ["\#(id)"]}"#)
        #expect((seen.replyParameters["assets"] as? [[String: Any]])?.first?["group"] as? String == "Harbour", "\(seen)")
        let groups = try await app.call("io.photod.Library.ListGroups")
        let names = (groups.replyParameters["groups"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.sorted() == ["Beach", "Harbour"], "the photo joined, the Hike group stayed hidden: \(groups)")
    }
}
