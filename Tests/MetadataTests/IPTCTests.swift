import Metadata
import PhotoTestSupport
import Testing

@Suite("IPTC Caption-Abstract (2:120)")
struct IPTCTests {
    private func caption(_ iptc: [UInt8]) -> [UInt8]? {
        MetadataReader.read(bytes: JPEGFixture.make(exif: nil, iptc: iptc)).descriptions.iptc
    }

    @Test("without 1:90 the caption is Latin-1: 0xE9 becomes é in UTF-8")
    func latin1Default() {
        #expect(caption(IPTCFixture(caption: [0x43, 0x61, 0x66, 0xE9]).iim()) == [0x43, 0x61, 0x66, 0xC3, 0xA9])
        // Every byte above 0x7F is one Latin-1 character, including those UTF-8 would call invalid.
        #expect(caption(IPTCFixture(caption: [0xFF, 0xA0, 0x80]).iim()) == [0xC3, 0xBF, 0xC2, 0xA0, 0xC2, 0x80])
    }

    @Test("undeclared bytes that happen to be UTF-8 are still read as Latin-1")
    func undeclaredUTF8() {
        #expect(caption(IPTCFixture(caption: Sample.bytes("é")).iim()) == Sample.bytes("Ã©"))
    }

    @Test("1:90 ESC % G declares UTF-8: the bytes pass through unchanged")
    func declaredUTF8() {
        let text = "Sjön 東京 \u{1F600}"
        #expect(caption(IPTCFixture(caption: Sample.bytes(text), declaresUTF8: true).iim()) == Sample.bytes(text))
    }

    @Test("another declared character set (ESC - A, ISO 8859-1) is Latin-1")
    func otherCharset() {
        let iim =
            IPTCFixture.dataset(record: 1, number: 90, [0x1B, 0x2D, 0x41])
            + IPTCFixture.dataset(record: 2, number: 120, [0x43, 0x61, 0x66, 0xE9])
        #expect(caption(iim) == Sample.bytes("Café"))
    }

    @Test("an extended-length dataset, short and over 32 KB", arguments: [5, 40_000])
    func extendedLength(length: Int) {
        let text = (0..<length).map { UInt8(0x41 + $0 % 26) }
        let iptc = IPTCFixture(caption: text, extendedLength: true).iim()
        #expect(caption(iptc) == text)
        #expect(MetadataReader.read(bytes: TIFFFixture(iptc: iptc).make()).descriptions.iptc == text)
    }

    @Test("no 2:120 dataset: nil, even with other datasets present")
    func absent() {
        let iim = IPTCFixture.dataset(record: 2, number: 0, [0, 4]) + IPTCFixture.dataset(record: 2, number: 5, [0x41])
        #expect(caption(iim) == nil)
    }

    @Test("an empty caption is empty, not missing")
    func empty() {
        #expect(caption(IPTCFixture(caption: []).iim()) == [])
    }

    @Test("a dataset length past the end of the record gives no caption")
    func lengthPastEnd() {
        let iim = IPTCFixture.dataset(record: 2, number: 0, [0, 4]) + [0x1C, 2, 120, 0x7F, 0xFF] + Sample.bytes("cut")
        #expect(caption(iim) == nil)
    }

    @Test("8BIM resources before 0x0404, with Pascal names and odd sizes, are skipped correctly")
    func otherResources() {
        let iptc = IPTCFixture(caption: Sample.bytes("After others")).iim()
        // Resource 0x03ED with the 3-character name "abc" (1 + 3 bytes, already even) and 5 data bytes (+1 pad).
        let named = Array("8BIM".utf8) + [0x03, 0xED, 3] + Array("abc".utf8) + [0, 0, 0, 5, 1, 2, 3, 4, 5, 0]
        // Resource 0x03F3 with the 2-character name "xy" (1 + 2 bytes, padded to 4).
        let padded = Array("8BIM".utf8) + [0x03, 0xF3, 2] + Array("xy".utf8) + [0, 0, 0, 0, 2, 9, 9]
        let payload = Array("Photoshop 3.0".utf8) + [0] + named + padded + IPTCFixture.imageResource(id: 0x0404, iptc)
        let app13 = JPEGBytes.segment(0xED, payload: payload)
        let bytes = JPEGBytes.inserting([app13], into: JPEGFixture.make(exif: nil))
        #expect(MetadataReader.read(bytes: bytes).descriptions.iptc == Sample.bytes("After others"))
    }

    @Test("an APP13 without the Photoshop 3.0 signature is not read")
    func wrongSignature() {
        let payload = Array("Photoshop 2.5".utf8) + [0] + IPTCFixture.imageResource(
            id: 0x0404, IPTCFixture(caption: Sample.bytes("nope")).iim())
        let bytes = JPEGBytes.inserting([JPEGBytes.segment(0xED, payload: payload)], into: JPEGFixture.make(exif: nil))
        #expect(MetadataReader.read(bytes: bytes).descriptions.iptc == nil)
    }
}
