/// Edits `dc:description` in an XMP packet as text, so every other byte of the packet stays as the
/// toolkit that wrote it left it (a full XML round trip would reformat it).
enum XMPDescriptionPatch {
    /// What opens an XMP APP1 in a JPEG: the namespace URI and a NUL.
    static let signature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    private static let trailer = Array("<?xpacket end=".utf8)

    /// The packet with its description replaced (nil: removed); nil when it has no `dc:description`.
    ///
    /// Like ExifTool, only the x-default alternative (else the first, which readers then take) is
    /// replaced; other languages are someone's translation and stay.
    static func apply(_ packet: [UInt8], _ text: [UInt8]?) throws(DescriptionEditError) -> [UInt8]? {
        if packet.starts(with: [0xFE, 0xFF]) || packet.starts(with: [0xFF, 0xFE]) || packet.starts(with: [0x00, 0x3C])
            || packet.starts(with: [0x3C, 0x00])
        {
            throw .unsupportedXMP(reason: "UTF-16 packet")
        }
        for prefix in XMPPacket.dublinCorePrefixes(in: packet) {
            let name = prefix + Array(":description".utf8)
            if let edited = try editElement(name, in: packet, text) {
                return keepingSize(edited, of: packet)
            }
            if let edited = try editAttribute(name, in: packet, text) {
                return keepingSize(edited, of: packet)
            }
        }
        return nil
    }

    /// A packet with the description added as its own `rdf:Description`, for a sidecar that has none.
    static func adding(_ text: [UInt8], to packet: [UInt8]) throws(DescriptionEditError) -> [UInt8] {
        guard let rdf = XML.findStartTag(Array("rdf:RDF".utf8), in: packet, from: 0), !rdf.selfClosing else {
            throw .unsupportedXMP(reason: "no rdf:RDF element")
        }
        // Its own namespace declarations, so the prefixes the packet binds elsewhere do not matter.
        let element = Array("""

              <rdf:Description rdf:about="" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
                xmlns:dc="http://purl.org/dc/elements/1.1/">
               <dc:description>\(alternative(text))</dc:description>
              </rdf:Description>
            """.utf8)
        var result = packet
        result.insert(contentsOf: element, at: rdf.contentStart)
        return keepingSize(result, of: packet)
    }

    /// A whole sidecar file holding only the description.
    static func newSidecar(_ text: [UInt8]) -> [UInt8] {
        Array("""
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:dc="http://purl.org/dc/elements/1.1/">
               <dc:description>\(alternative(text))</dc:description>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>

            """.utf8)
    }

    /// `<P:description>…</P:description>` edited: the chosen item's text, plain content, or the element removed.
    private static func editElement(_ name: [UInt8], in packet: [UInt8], _ text: [UInt8]?) throws(DescriptionEditError) -> [UInt8]? {
        var from = 0
        for _ in 0..<XMPPacket.maxElements {
            guard let start = XML.findStartTag(name, in: packet, from: from) else { return nil }
            from = start.contentStart
            if start.selfClosing { continue }
            guard let end = XML.findEndTag(name, in: packet, from: start.contentStart),
                let close = packet[end...].firstIndex(of: UInt8(ascii: ">"))
            else { throw .unsupportedXMP(reason: "dc:description is not closed") }
            var result = packet
            guard let text else {
                result.removeSubrange(lineStart(before: start.tagStart, in: packet)..<(close + 1))
                return result
            }
            let content = packet[start.contentStart..<end]
            let items = XML.items(in: content)
            if let chosen = items.first(where: { $0.language == "x-default" }) ?? items.first {
                result.replaceSubrange(chosen.text.startIndex..<chosen.text.endIndex, with: escaped(text, quote: false))
                return result
            }
            if !content.contains(UInt8(ascii: "<")) || content.starts(with: Array("<![CDATA[".utf8)) {
                result.replaceSubrange(start.contentStart..<end, with: escaped(text, quote: false))
                return result
            }
            throw .unsupportedXMP(reason: "dc:description holds markup the writer does not know")
        }
        return nil
    }

    /// `P:description="…"` edited in place, or removed with the white space before it.
    private static func editAttribute(_ name: [UInt8], in packet: [UInt8], _ text: [UInt8]?) throws(DescriptionEditError) -> [UInt8]? {
        guard let value = XML.attributeRange(name, in: packet),
            let nameStart = packet[..<value.lowerBound].lastRange(of: name)
        else { return nil }
        var result = packet
        guard let text else {
            var start = nameStart.lowerBound
            while start > 0, XML.isSpace(packet[start - 1]) { start -= 1 }
            result.removeSubrange(start..<(value.upperBound + 1))
            return result
        }
        result.replaceSubrange(value, with: escaped(text, quote: true))
        return result
    }

    /// The text as a one-item language alternative.
    private static func alternative(_ text: [UInt8]) -> String {
        "<rdf:Alt><rdf:li xml:lang=\"x-default\">" + String(decoding: escaped(text, quote: false), as: UTF8.self)
            + "</rdf:li></rdf:Alt>"
    }

    /// Character data or an attribute value: markup characters as entities, CR as a reference (a raw
    /// one would read back as LF), and in attributes TAB and LF too (attribute values normalize them).
    static func escaped(_ text: [UInt8], quote: Bool) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): result += Array("&amp;".utf8)
            case UInt8(ascii: "<"): result += Array("&lt;".utf8)
            case UInt8(ascii: ">"): result += Array("&gt;".utf8)
            case 0x0D: result += Array("&#xD;".utf8)
            case UInt8(ascii: "\"") where quote: result += Array("&quot;".utf8)
            case UInt8(ascii: "'") where quote: result += Array("&apos;".utf8)
            case 0x09 where quote: result += Array("&#x9;".utf8)
            case 0x0A where quote: result += Array("&#xA;".utf8)
            default: result.append(byte)
            }
        }
        return result
    }

    /// Where the line holding `index` starts, when only white space precedes `index` on it; else `index`.
    private static func lineStart(before index: Int, in packet: [UInt8]) -> Int {
        var start = index
        while start > 0, packet[start - 1] == 0x20 || packet[start - 1] == 0x09 { start -= 1 }
        guard start > 0, packet[start - 1] == 0x0A else { return index }
        return start - 1
    }

    /// The edited packet resized to the original's length through its padding (the white space
    /// before `<?xpacket end=`), which exists so packets can be edited in place; as is when it cannot.
    private static func keepingSize(_ edited: [UInt8], of original: [UInt8]) -> [UInt8] {
        guard let end = edited.lastRange(of: trailer)?.lowerBound else { return edited }
        var result = edited
        if edited.count < original.count {
            result.insert(contentsOf: [UInt8](repeating: 0x20, count: original.count - edited.count), at: end)
        } else if edited.count > original.count {
            var start = end
            while start > 0, XML.isSpace(edited[start - 1]) { start -= 1 }
            // Keep one newline before the trailer; only the spare white space is given up.
            let spare = end - start - 1
            let excess = edited.count - original.count
            if spare >= excess { result.removeSubrange((end - excess)..<end) }
        }
        return result
    }
}

extension Collection<UInt8> where Index == Int {
    /// The last occurrence of `pattern`.
    func lastRange(of pattern: [UInt8]) -> Range<Int>? {
        guard !pattern.isEmpty, count >= pattern.count else { return nil }
        var start = endIndex - pattern.count
        while start >= startIndex {
            if self[start..<(start + pattern.count)].elementsEqual(pattern) { return start..<(start + pattern.count) }
            start -= 1
        }
        return nil
    }
}
