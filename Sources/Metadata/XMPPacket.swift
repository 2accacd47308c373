/// Finds `dc:description` in an XMP packet (embedded, or a whole sidecar file) without a full XML parser.
///
/// XMP is RDF/XML written by a handful of toolkits; the description is a language alternative
/// (`rdf:Alt` of `rdf:li xml:lang=…`), occasionally a plain element or an attribute. The reader
/// honours the namespace prefix the packet binds to Dublin Core rather than assuming "dc".
public enum XMPPacket {
    private static let dublinCore = Array("http://purl.org/dc/elements/1.1/".utf8)
    /// Packets are a few KB; a sidecar past this is not one.
    public static let maxLength = 8 * 1024 * 1024
    /// Real packets bind Dublin Core once; each extra prefix costs a pass over the packet.
    static let maxPrefixes = 4
    /// `dc:description` elements tried before giving up (a real packet has one).
    static let maxElements = 16

    /// The x-default description (else the first alternative) as UTF-8, entities decoded; nil when there is none.
    public static func description(in packet: [UInt8]) -> [UInt8]? {
        description(in: packet[...])
    }

    /// The description in an open sidecar file, reading at most `maxLength` bytes of it.
    public static func description(fileDescriptor: Int32, fileSize: Int) -> [UInt8]? {
        var source = FileByteSource(fileDescriptor: fileDescriptor, size: fileSize)
        return description(in: source.bytes(at: 0, count: min(fileSize, maxLength)))
    }

    /// The same for a packet inside a larger buffer.
    static func description(in packet: ArraySlice<UInt8>) -> [UInt8]? {
        let text = utf8Text(packet.prefix(maxLength))
        for prefix in dublinCorePrefixes(in: text) {
            if let value = elementValue(prefix: prefix, in: text) ?? attributeValue(prefix: prefix, in: text) {
                return TextDecoding.validUTF8(value)
            }
        }
        return nil
    }

    /// The packet as UTF-8: XMP may be written in UTF-16 (a byte-order mark, or NULs beside ASCII tell).
    private static func utf8Text(_ packet: ArraySlice<UInt8>) -> [UInt8] {
        if packet.matches([0xFE, 0xFF]) { return TextDecoding.utf16ToUTF8(packet.dropFirst(2), bigEndian: true) }
        if packet.matches([0xFF, 0xFE]) { return TextDecoding.utf16ToUTF8(packet.dropFirst(2), bigEndian: false) }
        if packet.matches([0x00, 0x3C]) { return TextDecoding.utf16ToUTF8(packet, bigEndian: true) }
        if packet.matches([0x3C, 0x00]) { return TextDecoding.utf16ToUTF8(packet, bigEndian: false) }
        if packet.matches([0xEF, 0xBB, 0xBF]) { return Array(packet.dropFirst(3)) }
        return Array(packet)
    }

    /// Every prefix declared for Dublin Core (`xmlns:P="http://purl.org/dc/elements/1.1/"`), "dc" when none is;
    /// the writer edits the same element the reader chose.
    static func dublinCorePrefixes(in text: [UInt8]) -> [[UInt8]] {
        var prefixes: [[UInt8]] = []
        var from = 0
        while prefixes.count < maxPrefixes, let found = text.firstRange(of: dublinCore, from: from) {
            from = found.upperBound
            // Walk back over the quote, "=" and the prefix name to "xmlns:".
            var index = found.lowerBound - 1
            guard index >= 0, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'") else { continue }
            index -= 1
            while index >= 0, XML.isSpace(text[index]) { index -= 1 }
            guard index >= 0, text[index] == UInt8(ascii: "=") else { continue }
            index -= 1
            while index >= 0, XML.isSpace(text[index]) { index -= 1 }
            let nameEnd = index + 1
            while index >= 0, XML.isNameByte(text[index]) { index -= 1 }
            let name = Array(text[(index + 1)..<nameEnd])
            let xmlns = Array("xmlns:".utf8)
            if name.starts(with: xmlns), name.count > xmlns.count {
                let prefix = Array(name.dropFirst(xmlns.count))
                if !prefixes.contains(prefix) { prefixes.append(prefix) }
            }
        }
        return prefixes.isEmpty ? [Array("dc".utf8)] : prefixes
    }

    /// `<P:description>` as a language alternative, a bag of items or plain text.
    private static func elementValue(prefix: [UInt8], in text: [UInt8]) -> [UInt8]? {
        let name = prefix + Array(":description".utf8)
        var from = 0
        var tried = 0
        while tried < maxElements, let start = XML.findStartTag(name, in: text, from: from) {
            tried += 1
            from = start.contentStart
            if start.selfClosing { continue }
            guard let end = XML.findEndTag(name, in: text, from: start.contentStart) else { return nil }
            // The next try starts after this element, so nested or repeated openings are never
            // scanned to the same far end again (which made a crafted packet quadratic).
            from = end
            let content = text[start.contentStart..<end]
            let items = XML.items(in: content)
            if let chosen = items.first(where: { $0.language == "x-default" }) ?? items.first {
                return XML.decodeText(chosen.text)
            }
            if !content.contains(UInt8(ascii: "<")) || content.starts(with: Array("<![CDATA[".utf8)) {
                return XML.decodeText(content)
            }
        }
        return nil
    }

    /// `P:description="…"` written as an attribute of `rdf:Description`.
    private static func attributeValue(prefix: [UInt8], in text: [UInt8]) -> [UInt8]? {
        XML.attributeRange(prefix + Array(":description".utf8), in: text).map { XML.decodeText(text[$0]) }
    }
}

extension Array<UInt8> {
    /// The first occurrence of `pattern` at or after `from`.
    func firstRange(of pattern: [UInt8], from: Int) -> Range<Int>? {
        guard let first = pattern.first, !pattern.isEmpty, count >= pattern.count else { return nil }
        var index = Swift.max(0, from)
        let last = count - pattern.count
        while index <= last {
            guard let candidate = self[index...last].firstIndex(of: first) else { return nil }
            if self[candidate..<(candidate + pattern.count)].elementsEqual(pattern) {
                return candidate..<(candidate + pattern.count)
            }
            index = candidate + 1
        }
        return nil
    }
}
