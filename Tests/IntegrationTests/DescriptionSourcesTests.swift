import Foundation
import PhotoTestSupport
import Testing

/// Descriptions from XMP sidecars and other sources, through the real daemon: filed by source order,
/// and re-filed live and after a restart when a sidecar appears, changes or vanishes.
@Suite(.serialized)
struct DescriptionSourcesTests {
    /// A sidecar as darktable or Lightroom writes it: dc:description as a language alternative.
    static func sidecar(_ description: String) -> [UInt8] {
        Array("""
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
               <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(description)</rdf:li></rdf:Alt></dc:description>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    /// Each asset's (description, source, group) by library-relative path.
    private func filed(_ daemon: DaemonHarness) async throws -> [String: [String?]] {
        var result: [String: [String?]] = [:]
        for asset in try await daemon.photoctlJSON(["list", "--sort", "path"]).assets {
            guard let path = asset["path"] as? String else { continue }
            result[String(path.dropFirst(daemon.library.count + 1))] = [
                asset["description"] as? String, asset["descriptionSource"] as? String, asset["group"] as? String,
            ]
        }
        return result
    }

    /// Waits until `path` is filed as expected; the last state seen otherwise.
    private func waitFor(_ daemon: DaemonHarness, _ path: String, _ expected: [String?]) async throws -> [String?]? {
        var seen: [String?]?
        try await eventually(within: 10, every: .milliseconds(50)) {
            seen = try await filed(daemon)[path]
            return seen == expected
        }
        return seen
    }

    @Test func aSidecarNamesTheGroupWhenTheFileHasNoDescriptionAndIsNeverAnAsset() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("plain.jpg", Photo.jpeg(nil))
        try daemon.add("plain.jpg.xmp", Self.sidecar("Lake &amp; hills"))
        try daemon.add("raw/IMG_2.jpg", Photo.jpeg(nil))
        try daemon.add("raw/IMG_2.xmp", Self.sidecar("Lightroom caption"))
        try daemon.add("described.jpg", Photo.jpeg("Beach"))
        try daemon.add("described.xmp", Self.sidecar("Not used: EXIF comes first"))
        try await daemon.start()
        let assets = try await filed(daemon)
        #expect(assets.count == 3, "sidecars are not assets: \(assets.keys.sorted())")
        #expect(assets["plain.jpg"] == ["Lake & hills", "sidecar", "Lake & hills"])
        #expect(assets["raw/IMG_2.jpg"] == ["Lightroom caption", "sidecar", "Lightroom caption"])
        #expect(assets["described.jpg"] == ["Beach", "exif", "Beach"])
    }

    @Test func theConfiguredOrderPutsTheSidecarFirst() async throws {
        let daemon = try DaemonHarness(settings: "[groups]\ndescription_sources = [\"sidecar\", \"exif\"]")
        try daemon.add("described.jpg", Photo.jpeg("Beach"))
        try daemon.add("described.jpg.xmp", Self.sidecar("Dunes"))
        try daemon.add("other.jpg", Photo.jpeg("Harbour"))
        try await daemon.start()
        let assets = try await filed(daemon)
        #expect(assets["described.jpg"] == ["Dunes", "sidecar", "Dunes"])
        #expect(assets["other.jpg"] == ["Harbour", "exif", "Harbour"])
    }

    @Test func aSidecarAppearingChangingAndVanishingRefilesItsImageLive() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("trip/IMG_1.jpg", Photo.jpeg(nil))
        try daemon.add("trip/IMG_1.5.jpg", Photo.jpeg(nil))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["trip/IMG_1.jpg"])

        try daemon.add("trip/IMG_1.xmp", Self.sidecar("Alps"))
        await #expect(try waitFor(daemon, "trip/IMG_1.jpg", ["Alps", "sidecar", "Alps"]) == ["Alps", "sidecar", "Alps"])
        // IMG_1.5.jpg's own sidecar would be IMG_1.5.xmp: IMG_1.xmp is not it.
        await #expect(try filed(daemon)["trip/IMG_1.5.jpg"] == [nil, nil, "Other"])

        // The more specific name wins over name.xmp once it exists.
        try daemon.add("trip/IMG_1.jpg.xmp", Self.sidecar("Alps, day two"))
        await #expect(try waitFor(daemon, "trip/IMG_1.jpg", ["Alps, day two", "sidecar", "Alps, day two"])
                == ["Alps, day two", "sidecar", "Alps, day two"])

        // An editor saving atomically: write a temporary file, rename it over the sidecar.
        try daemon.add("trip/.IMG_1.jpg.xmp.tmp", Self.sidecar("Glacier"))
        try FileManager.default.removeItem(atPath: daemon.library + "/trip/IMG_1.jpg.xmp")
        try FileManager.default.moveItem(atPath: daemon.library + "/trip/.IMG_1.jpg.xmp.tmp",
                                        toPath: daemon.library + "/trip/IMG_1.jpg.xmp")
        await #expect(try waitFor(daemon, "trip/IMG_1.jpg", ["Glacier", "sidecar", "Glacier"]) == ["Glacier", "sidecar", "Glacier"])

        try FileManager.default.removeItem(atPath: daemon.library + "/trip/IMG_1.jpg.xmp")
        await #expect(try waitFor(daemon, "trip/IMG_1.jpg", ["Alps", "sidecar", "Alps"]) == ["Alps", "sidecar", "Alps"])
        try FileManager.default.removeItem(atPath: daemon.library + "/trip/IMG_1.xmp")
        await #expect(try waitFor(daemon, "trip/IMG_1.jpg", [nil, nil, "Other"]) == [nil, nil, "Other"])
        await #expect(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["trip/IMG_1.jpg"] == id,
                "re-filing keeps the asset's id")
        await #expect(try filed(daemon).count == 2)
    }

    @Test func aSidecarWrittenWhileThePhotodWasDownIsSeenAtStartUp() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg(nil))
        try daemon.add("b.jpg", Photo.jpeg(nil))
        try daemon.add("b.jpg.xmp", Self.sidecar("Old"))
        try await daemon.start()
        await #expect(try filed(daemon)["b.jpg"] == ["Old", "sidecar", "Old"])
        _ = await daemon.stop()

        try daemon.add("a.xmp", Self.sidecar("Written offline"))
        try FileManager.default.removeItem(atPath: daemon.library + "/b.jpg.xmp")
        try await daemon.start()
        let assets = try await filed(daemon)
        #expect(assets["a.jpg"] == ["Written offline", "sidecar", "Written offline"])
        #expect(assets["b.jpg"] == [nil, nil, "Other"])
    }
}
