/// Files holding offsets outside the Exif block that an edit would invalidate: refused, not adjusted,
/// because each is a rare layout and a wrong adjustment would damage the file silently.
enum JPEGOffsetChecks {
    /// What ends an AFCP trailer's last 12 bytes ("AXS!" big-endian, "AXS*" little-endian).
    private static let afcpSignatures: [[UInt8]] = [Array("AXS!".utf8), Array("AXS*".utf8)]
    /// A CIFF APP0: "II" or "MM", a header length, then "HEAPJPGM".
    private static let ciffType: [UInt8] = Array("HEAPJPGM".utf8)

    /// Throws `danglingOffset` for an AFCP trailer when the file's length changes, and for a CIFF APP0
    /// when the Exif block changes.
    static func refuse(_ bytes: [UInt8], _ segments: [JPEGSegments.Segment], resultCount: Int,
                       changesExif: Bool) throws(DescriptionEditError) {
        // AFCP (et_AFCP.jpg) records absolute file positions of its entries; a segment before it that
        // changes size moves them all, and ExifTool then reports (and silently fixes) wrong offsets.
        if resultCount != bytes.count, bytes.count >= 12,
            afcpSignatures.contains(where: { bytes[(bytes.count - 12)...].starts(with: $0) }) {
            throw .danglingOffset(reason: "an AFCP trailer holds absolute file offsets that the edit would move")
        }
        // ExifTool records each directory it reads by address, for CIFF and TIFF alike; after IFD0
        // moves or changes, a CIFF pointer (ia_jpg_exif-org_sony-powershota5.jpg) can hit the same
        // address and ExifTool drops the CIFF tags as a loop. The CIFF copy of the facts stays whole only
        // when the Exif block is left as it is.
        if changesExif, segments.contains(where: { $0.marker == 0xE0 && bytes[$0.payload].dropFirst(6).starts(with: ciffType) }) {
            throw .danglingOffset(reason: "a CIFF APP0 that ExifTool reads with the Exif block's addresses")
        }
    }
}
