import Metadata
import PhotoTestSupport
import Testing

@Suite("XMP dc:description")
struct XMPTests {
    private func description(_ alternatives: [XMPFixture.Alternative]) -> [UInt8]? {
        XMPPacket.description(in: XMPFixture(alternatives: alternatives).packet())
    }

    @Test("x-default wins wherever it stands among the alternatives", arguments: 0..<3)
    func xDefaultWins(position: Int) {
        var alternatives: [XMPFixture.Alternative] = [
            .init(language: "de", text: "Deutsch"), .init(language: "fr-FR", text: "Français"),
        ]
        alternatives.insert(.init(language: "x-default", text: "Default"), at: position)
        #expect(description(alternatives) == Sample.bytes("Default"))
    }

    @Test("without x-default the first alternative is taken")
    func firstAlternative() {
        let alternatives: [XMPFixture.Alternative] = [
            .init(language: "sv", text: "Svenska"), .init(language: "en", text: "English"),
        ]
        #expect(description(alternatives) == Sample.bytes("Svenska"))
    }

    @Test("an rdf:li with no attributes at all", arguments: [true, false])
    func attributeless(alone: Bool) {
        let bare = XMPFixture.Alternative(language: nil, text: "Bare")
        let alternatives = alone ? [bare] : [bare, .init(language: "x-default", text: "Default")]
        #expect(description(alternatives) == Sample.bytes(alone ? "Bare" : "Default"))
    }

    @Test("an rdf:Description without rdf:about, and a packet without the xpacket wrapper")
    func bareElements() {
        let alternatives = [XMPFixture.Alternative(language: "x-default", text: "Plain")]
        let packet = XMPFixture(alternatives: alternatives, packetWrapper: false, aboutAttribute: false).packet()
        #expect(XMPPacket.description(in: packet) == Sample.bytes("Plain"))
    }

    @Test(
        "predefined and numeric entities are decoded",
        arguments: [
            ("Fish &amp; chips", "Fish & chips"),
            ("&lt;b&gt; &quot;q&quot; &apos;a&apos;", "<b> \"q\" 'a'"),
            ("&#x41;&#65;&#x6a;", "AAj"),
            ("caf&#xE9; &#233;", "café é"),
            ("&#x1F600;", "\u{1F600}"),
            ("&amp;amp;", "&amp;"),  // decoded once, not twice
        ])
    func entities(markup: String, text: String) {
        #expect(description([.init(language: "x-default", markup: markup)]) == Sample.bytes(text))
    }

    @Test("UTF-8 text, newlines and inner spaces are kept as written")
    func utf8() {
        let text = "東京 — Sjön\n  second line"
        #expect(description([.init(language: "x-default", text: text)]) == Sample.bytes(text))
    }

    @Test("no dc:description: nil, even though dc:title has an x-default")
    func absent() {
        #expect(XMPPacket.description(in: XMPFixture(alternatives: []).packet()) == nil)
    }

    @Test("single-quoted attributes and extra whitespace are still XML")
    func quoting() {
        let packet = """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
            <rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>
            <dc:description >
             <rdf:Alt >
              <rdf:li xml:lang = 'de' >Deutsch</rdf:li>
              <rdf:li   xml:lang='x-default'>Quoted</rdf:li >
             </rdf:Alt>
            </dc:description>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        #expect(XMPPacket.description(in: Sample.bytes(packet)) == Sample.bytes("Quoted"))
    }

    @Test("not XMP at all", arguments: ["", "<", "plain text", "<dc:description>", "<rdf:li xml:lang=\"x-default\">x"])
    func garbage(text: String) {
        #expect(XMPPacket.description(in: Sample.bytes(text)) == nil)
    }

    @Test("every prefix of a packet: nil until the description's closing tag, never a cut-off text")
    func truncation() {
        let packet = XMPFixture(description: Sample.xmpText).packet()
        for length in 0...packet.count {
            let found = XMPPacket.description(in: Array(packet.prefix(length)))
            #expect(found == nil || found == Sample.bytes(Sample.xmpText), "prefix \(length)")
        }
        #expect(XMPPacket.description(in: packet) == Sample.bytes(Sample.xmpText))
    }

    @Test("the same packet through JPEG APP1, PNG iTXt, WebP XMP, TIFF tag 700, a HEIF mime item and a JXL xml box")
    func throughContainers() {
        let packet = XMPFixture(alternatives: [
            .init(language: "de", text: "Deutsch"), .init(language: "x-default", markup: "A &amp; &#x42;"),
        ]).packet()
        let files = [
            JPEGFixture.make(exif: nil, xmp: packet), PNGFixture(xmp: packet).make(), WebPFixture(xmp: packet).make(),
            TIFFFixture(xmp: packet).make(), HEIFFixture(xmp: packet).make(), JXLFixture(xmp: packet).make(),
        ]
        for file in files {
            #expect(MetadataReader.read(bytes: file).descriptions.xmp == Sample.bytes("A & B"))
        }
    }
}
