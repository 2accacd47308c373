import Checksums
import Metadata
import PhotoTestSupport
import Testing

/// Photoshop's IPTCDigest (resource 0x0425) after a caption edit, as ExifTool keeps it.
@Suite("Description writing: IPTCDigest")
struct DescriptionEditDigestTests {
    /// A JPEG whose APP13 holds a caption and the given digest.
    private func jpeg(digest: [UInt8], iim: [UInt8]) -> [UInt8] {
        let payload = IPTCFixture.photoshopAPP13Payload(iim: iim) + IPTCFixture.imageResource(id: 0x0425, digest)
        let base = JPEGFixture.make(exif: ExifFixture(description: "Old"))
        return Array(base[..<2]) + JPEGFixture.segment(0xED, payload) + Array(base[2...])
    }

    /// The IIM bytes (resource 0x0404) and the digest (0x0425) in a JPEG's APP13.
    private func resources(_ jpeg: [UInt8]) -> (iim: [UInt8], digest: [UInt8])? {
        func find(_ id: UInt8) -> [UInt8]? {
            guard let header = jpeg.firstRange(of: Array("8BIM".utf8) + [0x04, id, 0, 0]) else { return nil }
            let size = jpeg[header.upperBound..<(header.upperBound + 4)].reduce(0) { $0 << 8 | Int($1) }
            return Array(jpeg[(header.upperBound + 4)..<(header.upperBound + 4 + size)])
        }
        guard let iim = find(0x04), let digest = find(0x25) else { return nil }
        return (iim, digest)
    }

    @Test("a current digest is recomputed for the new IPTC block")
    func currentDigest() throws {
        let iim = IPTCFixture(caption: Array("Old".utf8)).iim()
        let edited = try DescriptionEdit.jpeg(jpeg(digest: MD5.digest(iim), iim: iim), description: "New caption")
        let found = try #require(resources(edited))
        #expect(found.iim != iim)
        #expect(found.digest == MD5.digest(found.iim))
    }

    @Test("a stale digest stays as it was: some other program changed the IPTC, and that is still true")
    func staleDigest() throws {
        let iim = IPTCFixture(caption: Array("Old".utf8)).iim()
        let stale = [UInt8](repeating: 0xAB, count: 16)
        let edited = try DescriptionEdit.jpeg(jpeg(digest: stale, iim: iim), description: "New caption")
        #expect(try #require(resources(edited)).digest == stale)
    }
}
