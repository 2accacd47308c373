/// The few XML lexical steps the XMP reader needs: tags, attributes, items, entities and CDATA.
enum XML {
    /// One `li` item of an RDF container.
    struct Item {
        var language: String?
        var text: ArraySlice<UInt8>
    }

    /// A start tag found in a document.
    struct StartTag {
        /// Index of the tag's "<" (the writer removes whole elements from there).
        var tagStart: Int
        /// Index just after the tag's ">".
        var contentStart: Int
        var selfClosing: Bool
        /// The bytes between the name and ">", holding the attributes.
        var attributes: ArraySlice<UInt8>
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Bytes that may appear in a qualified name (ASCII letters, digits, "_-.:", and any non-ASCII byte).
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    /// The next start tag named exactly `name` at or after `from`.
    static func findStartTag(_ name: [UInt8], in text: [UInt8], from: Int) -> StartTag? {
        let open = [UInt8(ascii: "<")] + name
        var index = from
        while let found = text.firstRange(of: open, from: index) {
            index = found.upperBound
            guard found.upperBound < text.count, !isNameByte(text[found.upperBound]) else { continue }
            guard let close = tagEnd(in: text, from: found.upperBound) else { return nil }
            let selfClosing = close > found.upperBound && text[close - 1] == UInt8(ascii: "/")
            return StartTag(tagStart: found.lowerBound, contentStart: close + 1, selfClosing: selfClosing,
                            attributes: text[found.upperBound..<(selfClosing ? close - 1 : close)])
        }
        return nil
    }

    /// Index of the first "</name>" at or after `from`.
    static func findEndTag(_ name: [UInt8], in text: [UInt8], from: Int) -> Int? {
        let close = Array("</".utf8) + name
        var index = from
        while let found = text.firstRange(of: close, from: index) {
            index = found.upperBound
            var after = found.upperBound
            while after < text.count, isSpace(text[after]) { after += 1 }
            if after < text.count, text[after] == UInt8(ascii: ">") { return found.lowerBound }
        }
        return nil
    }

    /// The ">" closing a tag whose name ended at `from`, skipping ">" inside quoted attribute values.
    private static func tagEnd(in text: [UInt8], from: Int) -> Int? {
        var quote: UInt8?
        var index = from
        while index < text.count {
            let byte = text[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Every `li` (any prefix) directly or indirectly inside `content`, with its xml:lang.
    static func items(in content: ArraySlice<UInt8>) -> [Item] {
        let text = Array(content)
        var items: [Item] = []
        var index = 0
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            var nameEnd = index
            while nameEnd < text.count, isNameByte(text[nameEnd]) { nameEnd += 1 }
            let name = Array(text[index..<nameEnd])
            guard name == Array("li".utf8) || name.suffix(3) == Array(":li".utf8) else { continue }
            guard let start = findStartTag(name, in: text, from: open) else { break }
            let language = attribute(Array("xml:lang".utf8), in: start.attributes)
                .map { String(decoding: $0, as: UTF8.self) }
            if start.selfClosing {
                items.append(Item(language: language, text: []))
                index = start.contentStart
                continue
            }
            guard let end = findEndTag(name, in: text, from: start.contentStart) else { break }
            items.append(Item(language: language, text: content[(content.startIndex + start.contentStart)..<(content.startIndex + end)]))
            index = end
        }
        return items
    }

    /// The raw value of attribute `name` in a tag's attribute bytes.
    static func attribute(_ name: [UInt8], in attributes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        attributeRange(name, in: Array(attributes)).map {
            attributes[(attributes.startIndex + $0.lowerBound)..<(attributes.startIndex + $0.upperBound)]
        }
    }

    /// Where the value of the first `name = "…"` (or '…') preceded by white space is in `text`;
    /// nil when there is none or the first one is malformed.
    static func attributeRange(_ name: [UInt8], in text: [UInt8]) -> Range<Int>? {
        var from = 0
        while let found = text.firstRange(of: name, from: from) {
            from = found.upperBound
            guard found.lowerBound > 0, isSpace(text[found.lowerBound - 1]) else { continue }
            var index = found.upperBound
            while index < text.count, isSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < text.count, isSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'") else { return nil }
            let quote = text[index]
            guard let close = text[(index + 1)...].firstIndex(of: quote) else { return nil }
            return (index + 1)..<close
        }
        return nil
    }

    /// Character data as text: CDATA sections kept verbatim, entity and character references decoded,
    /// line ends normalized to "\n" as XML requires.
    static func decodeText(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        let text = Array(raw)
        let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "<"), text[index...].starts(with: cdataOpen) {
                let start = index + cdataOpen.count
                let end = text.firstRange(of: cdataClose, from: start)?.lowerBound ?? text.count
                result += text[start..<end]
                index = min(text.count, end + cdataClose.count)
            } else if byte == UInt8(ascii: "&"), let semicolon = text[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
                let decoded = entity(text[(index + 1)..<semicolon])
            {
                result += decoded
                index = semicolon + 1
            } else if byte == 0x0D {
                result.append(0x0A)
                index += index + 1 < text.count && text[index + 1] == 0x0A ? 2 : 1
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }

    /// The UTF-8 bytes of a predefined entity or a character reference; nil for anything else.
    private static func entity(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        case let reference where reference.hasPrefix("#x") || reference.hasPrefix("#X"):
            return scalar(UInt32(reference.dropFirst(2), radix: 16))
        case let reference where reference.hasPrefix("#"):
            return scalar(UInt32(reference.dropFirst(), radix: 10))
        default: return nil
        }
    }

    private static func scalar(_ value: UInt32?) -> [UInt8]? {
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        return Array(String(scalar).utf8)
    }
}
