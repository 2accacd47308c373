/// Why a description could not be written; the file is left as it was.
public enum DescriptionEditError: Error, Equatable, Sendable {
    /// The description holds NUL or a control character XMP cannot carry, so not every source could hold it.
    case invalidDescription(reason: String)
    /// The description is longer than `DescriptionEdit.maxDescriptionBytes` UTF-8 bytes.
    case descriptionTooLong(limit: Int)
    /// The input file (or sidecar) is larger than the writer reads.
    case inputTooLarge(limit: Int)
    /// The bytes do not start with a JPEG SOI marker.
    case notJPEG
    /// The marker segments before the image data are not well formed (truncated, bad length, junk).
    case malformedJPEG(reason: String)
    /// The Exif APP1 holds no TIFF structure the writer can patch safely.
    case malformedExif(reason: String)
    /// The XMP packet (embedded or sidecar) is not one the writer edits (UTF-16, no rdf:RDF, broken tags).
    case unsupportedXMP(reason: String)
    /// The Photoshop/IPTC segment holding the caption is not one the writer edits.
    case malformedIPTC(reason: String)
    /// A rewritten segment would exceed the 65,533 payload bytes a JPEG segment can hold.
    case tooLarge(segment: String)
    /// After the edit, photod's reader would not see the new description in every source that has one
    /// (a caption in a place the writer does not edit): writing would leave old text visible.
    case wouldLeaveOldText(sources: [String])
    /// The file holds offsets the edit would break and the writer does not adjust: a maker-note offset
    /// past the Exif block (new bytes would land there), an AFCP trailer's absolute file offsets, or a
    /// CIFF APP0 that ExifTool reads with the Exif block's addresses.
    case danglingOffset(reason: String)
    /// After the edit, photod's reader would see other facts (date, make, model, size) changed.
    case wouldLoseMetadata
}

/// Writes a photo's description back into its metadata: JPEG EXIF, XMP and IPTC, or an XMP sidecar.
///
/// Pure functions over bytes: the caller reads the file, and replaces it atomically with the result.
public enum DescriptionEdit {
    /// IPTC IIM limits Caption-Abstract (2:120) to 2,000 bytes and ExifTool truncates longer ones; the
    /// same cap for every source keeps EXIF, XMP and IPTC holding the same text. It is far below the
    /// IDL's 65,536-byte group names, and escaped for XMP (at most 6x) it still fits one JPEG segment.
    public static let maxDescriptionBytes = 2000
    /// The issue's `[import] max_bytes` default: a JPEG past this is not edited (nor read whole).
    public static let maxJPEGBytes = 512 * 1024 * 1024

    /// The JPEG with its description set (nil: cleared) in EXIF IFD0, and in XMP `dc:description`
    /// and the IPTC caption where the file has them; every other byte stays as it was.
    public static func jpeg(_ bytes: [UInt8], description: String?) throws(DescriptionEditError) -> [UInt8] {
        guard bytes.count <= maxJPEGBytes else { throw .inputTooLarge(limit: maxJPEGBytes) }
        let text = try validated(description)
        let segments = try JPEGSegments.walk(bytes)
        var edits: [JPEGSegments.Edit] = []

        if let exif = segments.first(where: { $0.marker == 0xE1 && bytes[$0.payload].starts(with: TIFFHeader.exifPrefix) }) {
            let tiffStart = exif.payload.lowerBound + TIFFHeader.exifPrefix.count
            let patched = try ExifDescriptionPatch.apply(Array(bytes[tiffStart..<exif.payload.upperBound]), text)
            if let patched {
                edits.append(.init(replacing: exif.whole, with: try JPEGSegments.segment(0xE1, TIFFHeader.exifPrefix + patched, name: "Exif APP1")))
            }
        } else if let text {
            let block = ExifDescriptionPatch.minimalBlock(text)
            // After SOI and a JFIF/JFXX APP0, where readers expect the Exif APP1 to start.
            let at = segments.prefix { $0.marker == 0xE0 && isJFIF(bytes[$0.payload]) }.last?.whole.upperBound ?? 2
            edits.append(.init(replacing: at..<at, with: try JPEGSegments.segment(0xE1, TIFFHeader.exifPrefix + block, name: "Exif APP1")))
        }

        if let xmp = segments.first(where: { $0.marker == 0xE1 && bytes[$0.payload].starts(with: XMPDescriptionPatch.signature) }) {
            let packetStart = xmp.payload.lowerBound + XMPDescriptionPatch.signature.count
            if let patched = try XMPDescriptionPatch.apply(Array(bytes[packetStart..<xmp.payload.upperBound]), text) {
                let segment = try JPEGSegments.segment(0xE1, XMPDescriptionPatch.signature + patched, name: "XMP APP1")
                edits.append(.init(replacing: xmp.whole, with: segment))
            }
        }

        for photoshop in segments where photoshop.marker == 0xED && bytes[photoshop.payload].starts(with: IPTCDescriptionPatch.signature) {
            if let patched = try IPTCDescriptionPatch.apply(Array(bytes[photoshop.payload]), text) {
                edits.append(.init(replacing: photoshop.whole, with: try JPEGSegments.segment(0xED, patched, name: "Photoshop APP13")))
                break  // readers take the first caption; one segment holds it
            }
        }

        let result = JPEGSegments.splice(bytes, edits)
        try JPEGOffsetChecks.refuse(bytes, segments, resultCount: result.count, changesExif: edits.contains { $0.with.starts(with: [0xFF, 0xE1]) && $0.with.dropFirst(4).starts(with: TIFFHeader.exifPrefix) })
        let before = MetadataReader.read(bytes: bytes), after = MetadataReader.read(bytes: result)
        try verify(after.descriptions, text)
        // Everything else the reader sees stays: a file whose structure the edit disturbed is refused.
        var unchanged = after
        unchanged.descriptions = before.descriptions
        if unchanged != before { throw .wouldLoseMetadata }
        return result
    }

    /// A new or updated XMP sidecar holding the description (nil: cleared), keeping everything else
    /// in `existing`; nil when there is nothing to write (no sidecar, and nothing to set).
    public static func sidecar(existing: [UInt8]?, description: String?) throws(DescriptionEditError) -> [UInt8]? {
        let text = try validated(description)
        guard let existing else { return text.map(XMPDescriptionPatch.newSidecar) }
        guard existing.count <= XMPPacket.maxLength else { throw .inputTooLarge(limit: XMPPacket.maxLength) }
        let result: [UInt8]
        if let patched = try XMPDescriptionPatch.apply(existing, text) {
            result = patched
        } else if let text {
            result = try XMPDescriptionPatch.adding(text, to: existing)
        } else {
            return existing
        }
        if XMPPacket.description(in: result) != text {
            throw .wouldLeaveOldText(sources: [DescriptionSource.sidecar.rawValue])
        }
        return result
    }

    /// The description's UTF-8 bytes, refused when some source could not hold them as they are.
    public static func validated(_ description: String?) throws(DescriptionEditError) -> [UInt8]? {
        guard let description else { return nil }
        // A Swift String is valid UTF-8 by construction, so only length and characters are checked.
        let bytes = Array(description.utf8)
        guard bytes.count <= maxDescriptionBytes else { throw .descriptionTooLong(limit: maxDescriptionBytes) }
        if bytes.contains(0) {
            throw .invalidDescription(reason: "NUL ends EXIF and IPTC text early")
        }
        // XML 1.0 has no way to write other C0 controls, even as references.
        if bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            throw .invalidDescription(reason: "control characters cannot be written to XMP")
        }
        return bytes
    }

    /// The reader's view after the edit: every source present holds the new text (none, when clearing).
    private static func verify(_ found: DescriptionCandidates, _ text: [UInt8]?) throws(DescriptionEditError) {
        var stale: [String] = []
        if found.exif != text { stale.append(DescriptionSource.exif.rawValue) }
        for source in [DescriptionSource.xmp, .iptc] {
            if let value = found[source], value != text { stale.append(source.rawValue) }
        }
        if !stale.isEmpty { throw .wouldLeaveOldText(sources: stale) }
    }

    private static func isJFIF(_ payload: ArraySlice<UInt8>) -> Bool {
        payload.starts(with: Array("JFIF\0".utf8)) || payload.starts(with: Array("JFXX\0".utf8))
    }
}
