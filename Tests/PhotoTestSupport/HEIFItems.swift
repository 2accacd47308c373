/// The item data of a HEIF fixture and where each item's bytes go: `mdat`, or `idat` inside `meta`.
struct HEIFItems {
    static let imageID = 1
    static let exifID = 2
    static let xmpID = 3

    var image: [UInt8]
    var exif: [UInt8]?
    var xmp: [UInt8]?
    var exifPadding: Int

    var metadataIDs: [Int] {
        (exif == nil ? [] : [Self.exifID]) + (xmp == nil ? [] : [Self.xmpID])
    }

    /// `mdat`'s payload: the image, then (for file offsets) the XMP, the padding and the Exif payload last.
    func mediaData(_ construction: HEIFFixture.Construction) -> [UInt8] {
        guard construction == .fileOffset else { return image }
        return image + (xmp ?? []) + [UInt8](repeating: 0, count: exif == nil ? 0 : exifPadding) + (exif ?? [])
    }

    /// `idat`'s payload for construction method 1: the Exif payload, then the XMP.
    var itemData: [UInt8]? {
        exif == nil && xmp == nil ? nil : (exif ?? []) + (xmp ?? [])
    }

    /// iloc: 4-byte offsets and lengths, no base offset, one extent per item.
    ///
    /// Version 0 when everything is in `mdat`; version 1 (which adds construction_method) for `idat`.
    func location(_ construction: HEIFFixture.Construction, mediaDataStart: Int) -> [UInt8] {
        // (itemID, construction method, offset, length)
        var extents: [(Int, Int, Int, Int)] = [(Self.imageID, 0, mediaDataStart, image.count)]
        switch construction {
        case .fileOffset:
            var offset = mediaDataStart + image.count
            if let xmp {
                extents.append((Self.xmpID, 0, offset, xmp.count))
                offset += xmp.count
            }
            if let exif {
                extents.append((Self.exifID, 0, offset + exifPadding, exif.count))
            }
        case .itemData:
            if let exif { extents.append((Self.exifID, 1, 0, exif.count)) }
            if let xmp { extents.append((Self.xmpID, 1, exif?.count ?? 0, xmp.count)) }
        }
        let version: UInt8 = construction == .fileOffset ? 0 : 1
        // offset_size 4, length_size 4; base_offset_size 0, index_size (v1) or reserved 0; item count.
        var payload: [UInt8] = [0x44, 0x00] + ByteEncoding.be16(extents.count)
        for (id, method, offset, length) in extents.sorted(by: { $0.0 < $1.0 }) {
            payload += ByteEncoding.be16(id)
            if version == 1 { payload += ByteEncoding.be16(method) }  // 12 reserved bits, then the method
            payload += ByteEncoding.be16(0)  // data_reference_index: this file
            payload += ByteEncoding.be16(1) + ByteEncoding.be32(offset) + ByteEncoding.be32(length)
        }
        return ISOBox.fullBox("iloc", version: version, payload)
    }
}
