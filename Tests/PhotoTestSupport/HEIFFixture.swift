/// A small decodable HEIC or AVIF file whose `meta` box holds an Exif item and an XMP `mime` item.
public struct HEIFFixture: Sendable {
    /// The image codec and the `ftyp` brands that go with it.
    public enum Brand: Sendable, CaseIterable {
        /// "heic" with an HEVC (`hvc1`) primary item, 64x64.
        case heic
        /// "avif" with an AV1 (`av01`) primary item, 8x8.
        case avif
    }

    /// Where the metadata items' bytes live, as iloc's construction_method says.
    public enum Construction: Sendable, CaseIterable {
        /// Method 0: absolute file offsets into `mdat` (iloc version 0).
        case fileOffset
        /// Method 1: offsets into the `idat` box inside `meta` (iloc version 1).
        case itemData
    }

    /// How a top-level box header states its size.
    public enum BoxSize: Sendable, CaseIterable {
        /// A 32-bit size.
        case exact
        /// size 1 and a 64-bit size after the type.
        case largeSize
        /// size 0: the box runs to the end of the file (only legal for the last box).
        case toEnd
    }

    /// The codec and brands.
    public var brand: Brand
    /// The Exif item's TIFF block; nil leaves the item out.
    public var exif: ExifFixture?
    /// Puts "Exif\0\0" between the 4-byte offset and the TIFF header (offset 6), as Apple and libheif do.
    public var exifHasHeader: Bool
    /// An XMP packet as a `mime` item of content type "application/rdf+xml"; nil leaves it out.
    public var xmp: [UInt8]?
    /// Where the metadata items' bytes live.
    public var construction: Construction
    /// With `.fileOffset`: that many zero bytes in `mdat` before the Exif payload, which then ends `mdat`.
    public var exifPadding: Int?
    /// Writes `mdat` before `meta`, so a reader must walk past `mdat` to find the items.
    public var metaLast: Bool
    /// The `mdat` header form.
    public var mediaDataSize: BoxSize
    /// The `meta` header form.
    public var metaSize: BoxSize

    /// Creates a fixture; by default a HEIC with meta first and every item in `mdat`.
    public init(
        brand: Brand = .heic, exif: ExifFixture? = nil, exifHasHeader: Bool = true, xmp: [UInt8]? = nil,
        construction: Construction = .fileOffset, exifPadding: Int? = nil, metaLast: Bool = false,
        mediaDataSize: BoxSize = .exact, metaSize: BoxSize = .exact
    ) {
        self.brand = brand
        self.exif = exif
        self.exifHasHeader = exifHasHeader
        self.xmp = xmp
        self.construction = construction
        self.exifPadding = exifPadding
        self.metaLast = metaLast
        self.mediaDataSize = mediaDataSize
        self.metaSize = metaSize
    }

    /// The primary image's size as `ispe` states it.
    public var width: Int { brand == .heic ? HEIFCodecSamples.hevcSize.width : HEIFCodecSamples.av1Size.width }
    /// The primary image's size as `ispe` states it.
    public var height: Int { brand == .heic ? HEIFCodecSamples.hevcSize.height : HEIFCodecSamples.av1Size.height }

    /// The Exif item's payload: the big-endian offset from after itself to the TIFF header, then the bytes.
    public var exifPayload: [UInt8]? {
        guard let exif else { return nil }
        let header = exifHasHeader ? ByteEncoding.ascii("Exif") + [0, 0] : []
        return ByteEncoding.be32(header.count) + header + exif.tiffBlock()
    }

    /// The file's bytes.
    public func make() -> [UInt8] {
        precondition(metaLast ? mediaDataSize != .toEnd : metaSize != .toEnd, "only the last box may run to the end")
        precondition(exifPadding == nil || construction == .fileOffset, "padding only applies to mdat")
        let fileType =
            brand == .heic
            ? ISOBox.fileType(major: "heic", compatible: ["mif1", "heic"])
            : ISOBox.fileType(major: "avif", compatible: ["avif", "mif1", "miaf"])
        let image = brand == .heic ? HEIFCodecSamples.hevcImage : HEIFCodecSamples.av1Image
        let items = HEIFItems(image: image, exif: exifPayload, xmp: xmp, exifPadding: exifPadding ?? 0)

        // iloc's offsets are fixed-width, so meta's size is known before the offsets are.
        let metaLength = meta(items, mediaDataStart: 0).count
        let mediaDataHeader = ISOBox.headerLength(mediaDataSize == .largeSize ? .largeSize : .exact)
        let mediaDataStart =
            metaLast ? fileType.count + mediaDataHeader : fileType.count + metaLength + mediaDataHeader
        let metaBox = meta(items, mediaDataStart: mediaDataStart)
        let mediaData = ISOBox.box("mdat", items.mediaData(construction), size: Self.isoSize(mediaDataSize))
        return fileType + (metaLast ? mediaData + metaBox : metaBox + mediaData)
    }

    private static func isoSize(_ size: BoxSize) -> ISOBox.Size {
        switch size {
        case .exact: .exact
        case .largeSize: .largeSize
        case .toEnd: .toEnd
        }
    }

    /// meta (FullBox): hdlr 'pict', pitm, iinf, iref, iprp, iloc, and idat when the items live there.
    private func meta(_ items: HEIFItems, mediaDataStart: Int) -> [UInt8] {
        // pre_defined, handler type, three reserved words, an empty name.
        let handler = [0, 0, 0, 0] + ByteEncoding.ascii("pict") + [UInt8](repeating: 0, count: 13)
        var children = ISOBox.fullBox("hdlr", handler)
        children += ISOBox.fullBox("pitm", ByteEncoding.be16(HEIFItems.imageID))
        children += itemInfo(items)
        children += itemReferences(items)
        children += properties()
        children += items.location(construction, mediaDataStart: mediaDataStart)
        if construction == .itemData, let data = items.itemData {
            children += ISOBox.box("idat", data)
        }
        let payload = [0, 0, 0, 0] + children  // FullBox version 0, flags 0
        return ISOBox.box("meta", payload, size: Self.isoSize(metaSize))
    }

    /// iinf with version 2 infe entries: the image, then "Exif", then the "mime" XMP item.
    private func itemInfo(_ items: HEIFItems) -> [UInt8] {
        let imageType = brand == .heic ? "hvc1" : "av01"
        var entries = ISOBox.fullBox(
            "infe", version: 2, ByteEncoding.be16(HEIFItems.imageID) + [0, 0] + ByteEncoding.ascii(imageType) + [0])
        if items.exif != nil {
            entries += ISOBox.fullBox(
                "infe", version: 2, ByteEncoding.be16(HEIFItems.exifID) + [0, 0] + ByteEncoding.ascii("Exif") + [0])
        }
        if items.xmp != nil {
            let name = ByteEncoding.ascii("XMP") + [0]
            let contentType = ByteEncoding.ascii("application/rdf+xml") + [0]
            entries += ISOBox.fullBox(
                "infe", version: 2,
                ByteEncoding.be16(HEIFItems.xmpID) + [0, 0] + ByteEncoding.ascii("mime") + name + contentType)
        }
        let count = 1 + (items.exif == nil ? 0 : 1) + (items.xmp == nil ? 0 : 1)
        return ISOBox.fullBox("iinf", ByteEncoding.be16(count) + entries)
    }

    /// iref: each metadata item 'cdsc' (content describes) the image.
    private func itemReferences(_ items: HEIFItems) -> [UInt8] {
        guard !items.metadataIDs.isEmpty else { return [] }
        let references = items.metadataIDs.flatMap { id in
            ISOBox.box("cdsc", ByteEncoding.be16(id) + ByteEncoding.be16(1) + ByteEncoding.be16(HEIFItems.imageID))
        }
        return ISOBox.fullBox("iref", references)
    }

    /// iprp: the codec configuration, ispe and pixi, all associated with the image (configuration essential).
    private func properties() -> [UInt8] {
        let configuration =
            brand == .heic
            ? ISOBox.box("hvcC", HEIFCodecSamples.hevcConfiguration)
            : ISOBox.box("av1C", HEIFCodecSamples.av1Configuration)
        let spatialExtent = ISOBox.fullBox("ispe", ByteEncoding.be32(width) + ByteEncoding.be32(height))
        let pixelInformation = ISOBox.fullBox("pixi", [3, 8, 8, 8])
        let container = ISOBox.box("ipco", configuration + spatialExtent + pixelInformation)
        // One entry: the image item, three associations by 1-based index; 0x80 marks an essential property.
        let associations = ByteEncoding.be32(1) + ByteEncoding.be16(HEIFItems.imageID) + [3, 0x81, 0x02, 0x03]
        return ISOBox.box("iprp", container + ISOBox.fullBox("ipma", associations))
    }
}
