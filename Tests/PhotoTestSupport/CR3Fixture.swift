/// A Canon CR3 skeleton: ftyp "crx ", moov holding Canon's metadata uuid box with CMT1 (IFD0) and CMT2 (Exif IFD).
///
/// There is no raw image data, only an empty `mdat`: readers of descriptions and dates never look there.
public struct CR3Fixture: Sendable {
    /// The IFD0 fields go to CMT1, the Exif IFD fields to CMT2; each box is a TIFF block of its own.
    public var exif: ExifFixture

    /// Creates a fixture.
    public init(exif: ExifFixture) {
        self.exif = exif
    }

    /// Canon's metadata container uuid inside `moov`: 85c0b687-820f-11e0-8111-f4ce462b6a48.
    public static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// The file's bytes: ftyp, moov(uuid(CNCV, CMT1, CMT2)), mdat.
    public func make() -> [UInt8] {
        let writer = TIFFWriter(byteOrder: exif.byteOrder)
        let cmt1 = writer.header(firstIFDOffset: 8) + writer.ifd(exif.ifd0Entries(writer), at: 8)
        let cmt2 = writer.header(firstIFDOffset: 8) + writer.ifd(exif.exifEntries(writer), at: 8)
        let canon =
            ISOBox.box("CNCV", ByteEncoding.ascii("CanonCR3_001/00.09.00/00.00.00"))
            + ISOBox.box("CMT1", cmt1) + ISOBox.box("CMT2", cmt2)
        let movie = ISOBox.box("moov", ISOBox.box("uuid", Self.canonUUID + canon))
        return ISOBox.fileType(major: "crx ", minor: 1, compatible: ["crx ", "isom"]) + movie + ISOBox.box("mdat", [])
    }
}
