import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing

/// photoctl's output for people through the real binaries, under a fixed `COLUMNS`: tables that
/// fit, `--full`, `--no-legend`, `--fields`, `--format tsv`, `show` for people, `--version`.
@Suite(.serialized) struct OutputCommandTests {
    static let caption = LongCaption.xml
    static let taken = "2021-07-04 10:30:00"

    /// A library of beach.jpg ("Beach") and caption.jpg (a 4,281-character XML caption).
    static func library() async throws -> (daemon: DaemonHarness, beach: String, caption: String) {
        let daemon = try DaemonHarness()
        try daemon.add("beach.jpg", Photo.jpeg("Beach"))
        try daemon.add("caption.jpg", Photo.jpeg(caption))
        try await daemon.start()
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        return (daemon, try #require(ids["beach.jpg"]), try #require(ids["caption.jpg"]))
    }

    /// Runs photoctl with `extra` added to the daemon's environment.
    static func photoctl(_ daemon: DaemonHarness, _ arguments: [String], _ extra: [String: String]) async throws -> ProcessResult {
        try await ProcessRunner.run(Binaries.photoctl, arguments, environment: daemon.environment.merging(extra) { $1 })
    }

    static func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }

    @Test func listFitsEightyColumnsWhateverTheCaption() async throws {
        let (daemon, beach, caption) = try await Self.library()
        let chosen = try await Self.photoctl(daemon, ["list", "--sort", "path", "--fields", "id,group,taken,format"],
                                       ["COLUMNS": "80"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        // ID 16, TAKEN 19 and FORMAT 6 are fixed; GROUP gets the rest of 80: 33 columns.
        #expect(chosen.stdout == """
            ID\(Self.spaces(16))GROUP\(Self.spaces(30))TAKEN\(Self.spaces(16))FORMAT
            \(beach)  Beach\(Self.spaces(30))\(Self.taken)  jpeg
            \(caption)  \(Self.caption.prefix(32))…  \(Self.taken)  jpeg

            """)

        let list = try await Self.photoctl(daemon, ["list", "--sort", "path"], ["COLUMNS": "80"])
        #expect(list.status == 0)
        // GROUP gives way first, down to 8 columns; PATH gets the other 31 and loses whole
        // folders from its start, keeping its file name and the folders nearest it.
        func path(_ name: String) -> String {
            let whole = daemon.library + "/" + name
            let slashes = whole.indices.filter { whole[$0] == "/" }
            let tail = slashes.map { String(whole[$0...]) }.first { $0.count + 1 <= 31 } ?? "/" + name
            return "…" + tail
        }
        #expect(list.stdout == """
            ID\(Self.spaces(16))GROUP\(Self.spaces(5))TAKEN\(Self.spaces(16))PATH
            \(beach)  Beach\(Self.spaces(5))\(Self.taken)  \(path("beach.jpg"))
            \(caption)  \(Self.caption.prefix(7))…  \(Self.taken)  \(path("caption.jpg"))

            """)
        for line in list.stdout.split(separator: "\n") { #expect(line.count <= 80) }

        // Piped without COLUMNS: whole rows, as before.
        let piped = try await daemon.photoctl(["list"])
        #expect(piped.stdout.contains(Self.caption + "  "))
    }

    @Test func fullShowsEverythingAndNoLegendDropsTheHeader() async throws {
        let (daemon, beach, caption) = try await Self.library()
        let full = try await Self.photoctl(daemon, ["--full", "list", "--sort", "path"], ["COLUMNS": "80"])
        #expect(full.status == 0)
        #expect(full.stdout.contains("\(caption)  \(Self.caption)  \(Self.taken)  \(daemon.library)/caption.jpg\n"))
        let bare = try await Self.photoctl(daemon, ["list", "--sort", "path", "--no-legend", "--fields", "id,format"],
                                     ["COLUMNS": "80"])
        #expect(bare.stdout == "\(beach)  jpeg\n\(caption)  jpeg\n")
        let groups = try await Self.photoctl(daemon, ["--no-legend", "groups"], ["COLUMNS": "80"])
        #expect(!groups.stdout.contains("GROUP"))
        for line in groups.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }

    @Test func unknownFieldsAreAUsageErrorListingTheValidOnes() async throws {
        let result = try await ProcessRunner.run(Binaries.photoctl, ["list", "--fields", "id,colour"],
                                           environment: ["PHOTOD_SOCKET": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown field \"colour\"; valid fields: id, path, group, description"),
                "\(result.stderr)")
    }

    @Test func tsvIsOneLinePerPhotoWithEscapedValues() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("odd.jpg", Photo.jpeg("tab\there\nnew \\ line\u{1B}[2J"))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["odd.jpg"])
        let tsv = try await Self.photoctl(daemon, ["list", "--format", "tsv", "--fields", "id,description,source,width,taken"],
                                    ["COLUMNS": "20"])
        #expect(tsv.status == 0)
        #expect(tsv.stdout == "id\tdescription\tsource\twidth\ttaken\n"
                + "\(id)\ttab\\there\\nnew \\\\ line\\u{1B}[2J\texif\t8\t2021-07-04T10:30:00\n")
        let bare = try await daemon.photoctl(["list", "--format", "tsv", "--no-legend", "--fields", "path"])
        #expect(bare.stdout == "\(daemon.library)/odd.jpg\n")
    }

    @Test func showIsForPeopleAndShortensALongCaption() async throws {
        let daemon = try DaemonHarness()
        let photo = JPEGFixture.make(exif: ExifFixture(
            description: "Beach at dawn", dateTimeOriginal: "2021:06:05 14:03:22", offsetTimeOriginal: "+02:00",
            orientation: 6, make: "Canon", model: "EOS 5D"), width: 8, height: 8)
        try #require(photo.count < 1000)
        let file = try daemon.add("show.jpg", photo)
        try daemon.add("caption.jpg", Photo.jpeg(Self.caption))
        // 2024-01-02 10:11:12 UTC
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_704_190_272)],
                                              ofItemAtPath: file)
        try await daemon.start()
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let id = try #require(ids["show.jpg"])
        let show = try await Self.photoctl(daemon, ["show", id], ["COLUMNS": "80", "TZ": "Asia/Kolkata"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == """
                     ID: \(id)
                   Path: \(file)
                  Group: Beach at dawn
            Description: Beach at dawn
                 Source: EXIF ImageDescription
                 Format: jpeg
                  Taken: 2021-06-05 14:03:22 +02:00
             Dimensions: 8 × 8
            Orientation: Rotate 90 CW
                   Make: Canon
                  Model: EOS 5D
                   Size: \(photo.count) B
               Modified: 2024-01-02 15:41:12 +05:30

            """)
        let json = try await daemon.photoctlJSON(["show", id])
        #expect(json.assets.first?["size"] as? Int == photo.count, "exact bytes in JSON")

        let long = try await Self.photoctl(daemon, ["show", try #require(ids["caption.jpg"])], ["COLUMNS": "80"])
        let lines = long.stdout.split(separator: "\n")
        #expect(lines.contains("Description: \(Self.caption.prefix(66))…"), "\(lines)")
        #expect(lines.contains("      Taken: 2021-07-04 10:30:00 (no time zone recorded)"))
        for line in lines { #expect(line.count <= 80) }
    }

    @Test func showNamesTheSidecarTheDescriptionCameFrom() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("plain.jpg", Photo.jpeg(nil))
        try daemon.add("plain.jpg.xmp", DescriptionSourcesTests.sidecar("Lake"))
        try daemon.add("raw/IMG_2.jpg", Photo.jpeg(nil))
        try daemon.add("raw/IMG_2.xmp", DescriptionSourcesTests.sidecar("Lightroom caption"))
        try FileManager.default.createDirectory(atPath: daemon.library + "/odd", withIntermediateDirectories: true)
        let odd = Array((daemon.library + "/odd/bad").utf8) + [0xFF]
        try RawFile.write(path: odd + Array(".jpg".utf8), contents: Photo.jpeg(nil))
        try RawFile.write(path: odd + Array(".jpg.xmp".utf8), contents: DescriptionSourcesTests.sidecar("Odd"))
        try await daemon.start()
        let assets = try await daemon.photoctlJSON(["list", "--sort", "path"]).assets
        #expect(assets.map { $0["sidecar"] as? String } == [
            daemon.library + "/odd/bad\u{FFFD}.jpg.xmp", daemon.library + "/plain.jpg.xmp",
            daemon.library + "/raw/IMG_2.xmp",
        ])
        #expect(assets.first?["sidecarBytes"] as? String == Data(odd + Array(".jpg.xmp".utf8)).base64EncodedString())
        #expect(assets.dropFirst().allSatisfy { $0["sidecarBytes"] == nil })

        let ids = assets.compactMap { $0["id"] as? String }
        let show = try await Self.photoctl(daemon, ["show"] + ids, ["COLUMNS": "200"])
        #expect(show.stdout.contains("     Source: XMP sidecar\n    Sidecar: \(daemon.library)/odd/bad\\x{FF}.jpg.xmp\n"))
        #expect(show.stdout.contains("    Sidecar: \(daemon.library)/raw/IMG_2.xmp\n"))
        let tsv = try await daemon.photoctl(["list", "--sort", "path", "--format", "tsv", "--no-legend", "--fields", "sidecar"])
        #expect(tsv.stdout == "\(daemon.library)/odd/bad\\x{FF}.jpg.xmp\n\(daemon.library)/plain.jpg.xmp\n"
                + "\(daemon.library)/raw/IMG_2.xmp\n")
    }

    @Test func everyProgramPrintsItsVersion() async throws {
        let photoctl = try await ProcessRunner.run(Binaries.photoctl, ["--version"])
        #expect(photoctl.status == 0)
        #expect(photoctl.stdout == "photoctl \(PhotodVersion.current)\n")
        let photod = try await ProcessRunner.run(Binaries.photod, ["--version"])
        #expect(photod.status == 0)
        #expect(photod.stdout == "photod \(PhotodVersion.current)\n")
        let notify = try await ProcessRunner.run(Binaries.productsFolder.appendingPathComponent("photod-notify").path, ["--version"])
        #expect(notify.status == 0)
        #expect(notify.stdout == "photod-notify \(PhotodVersion.current)\n")
    }
}
