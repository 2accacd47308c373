/// An XMP packet whose `dc:description` holds the language alternatives a test asks for.
public struct XMPFixture: Sendable {
    /// One `rdf:li` of the `dc:description` language alternative.
    public struct Alternative: Sendable {
        /// The `xml:lang` value; nil writes an `rdf:li` with no attributes at all.
        public var language: String?
        /// The element's content as XML markup, written verbatim (so tests can write `&amp;` or `&#x41;`).
        public var markup: String

        /// Creates an alternative from markup that is already XML-escaped.
        public init(language: String?, markup: String) {
            self.language = language
            self.markup = markup
        }

        /// Creates an alternative from plain text, escaping `&`, `<` and `>`.
        public init(language: String?, text: String) {
            self.init(language: language, markup: XMPFixture.escaped(text))
        }
    }

    /// The `dc:description` alternatives in document order; empty leaves `dc:description` out.
    public var alternatives: [Alternative]
    /// A `dc:title` x-default written before the description, so a reader must not take the first `rdf:li`.
    public var title: String?
    /// Wraps the document in `<?xpacket begin … ?>` / `<?xpacket end="w"?>`, as embedded packets are.
    public var packetWrapper: Bool
    /// Gives `rdf:Description` an `rdf:about=""` attribute, as most writers do; false writes a bare element.
    public var aboutAttribute: Bool

    /// Creates a packet with any number of alternatives.
    public init(
        alternatives: [Alternative], title: String? = "Not the description", packetWrapper: Bool = true,
        aboutAttribute: Bool = true
    ) {
        self.alternatives = alternatives
        self.title = title
        self.packetWrapper = packetWrapper
        self.aboutAttribute = aboutAttribute
    }

    /// Creates a packet whose only description is the x-default `text` (escaped).
    public init(description text: String) {
        self.init(alternatives: [Alternative(language: "x-default", text: text)])
    }

    /// The packet as UTF-8 bytes, ready for an APP1, an iTXt chunk, a TIFF tag 700 or a sidecar file.
    public func packet() -> [UInt8] {
        var lines: [String] = []
        if packetWrapper {
            lines.append("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>")
        }
        lines.append("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"photod fixture\">")
        lines.append(" <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">")
        let about = aboutAttribute ? " rdf:about=\"\"" : ""
        lines.append("  <rdf:Description\(about) xmlns:dc=\"http://purl.org/dc/elements/1.1/\">")
        if let title {
            let item = "<rdf:li xml:lang=\"x-default\">\(Self.escaped(title))</rdf:li>"
            lines.append("   <dc:title><rdf:Alt>\(item)</rdf:Alt></dc:title>")
        }
        if !alternatives.isEmpty {
            lines.append("   <dc:description>")
            lines.append("    <rdf:Alt>")
            for alternative in alternatives {
                let language = alternative.language.map { " xml:lang=\"\($0)\"" } ?? ""
                lines.append("     <rdf:li\(language)>\(alternative.markup)</rdf:li>")
            }
            lines.append("    </rdf:Alt>")
            lines.append("   </dc:description>")
        }
        lines.append("  </rdf:Description>")
        lines.append(" </rdf:RDF>")
        lines.append("</x:xmpmeta>")
        if packetWrapper {
            // Writers leave padding so the packet can be edited in place; readers must skip it.
            lines.append(String(repeating: " ", count: 64))
            lines.append("<?xpacket end=\"w\"?>")
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Plain text as XML character data.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
