import CExif

/// The only code that talks to libexif: loads one EXIF payload and copies out the raw values of the tags we use.
enum LibExif {
    /// Parses synchronously; nothing libexif allocated outlives the call.
    static func facts(fromPayload payload: ArraySlice<UInt8>) -> ExifFacts {
        guard payload.count >= 6, payload.count <= Int(UInt32.max), let data = exif_data_new() else {
            return ExifFacts()
        }
        defer { exif_data_unref(data) }
        // Following the specification would add mandatory tags with invented values and costs time.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        payload.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress {
                exif_data_load_data(data, base, UInt32(buffer.count))
            }
        }

        let order = exif_data_get_byte_order(data)
        let ifd0 = data.pointee.ifd.0  // EXIF_IFD_0
        let exifIFD = data.pointee.ifd.2  // EXIF_IFD_EXIF
        var facts = ExifFacts()
        facts.description = text(ifd0, EXIF_TAG_IMAGE_DESCRIPTION)
        facts.make = text(ifd0, EXIF_TAG_MAKE)
        facts.model = text(ifd0, EXIF_TAG_MODEL)
        // Some cameras (Sony SLT-A58) store Orientation as SLONG; a valid value reads the same either way.
        facts.orientation = integer(ifd0, EXIF_TAG_ORIENTATION, order, allowLong: true, allowSignedLong: true)
        facts.dateTimeOriginal = text(exifIFD, EXIF_TAG_DATE_TIME_ORIGINAL)
        facts.offsetTimeOriginal = text(exifIFD, EXIF_TAG_OFFSET_TIME_ORIGINAL)
        facts.pixelXDimension = integer(exifIFD, EXIF_TAG_PIXEL_X_DIMENSION, order, allowLong: true)
        facts.pixelYDimension = integer(exifIFD, EXIF_TAG_PIXEL_Y_DIMENSION, order, allowLong: true)
        return facts
    }

    /// A text tag's bytes up to the first NUL; nil when the tag is absent or stored as a non-text type.
    private static func text(_ content: UnsafeMutablePointer<ExifContent>?, _ tag: ExifTag) -> [UInt8]? {
        // exif_entry_get_value is deliberately not used: it returns localised display text, not the bytes.
        guard let content, let entry = exif_content_get_entry(content, tag) else { return nil }
        let format = entry.pointee.format
        guard format == EXIF_FORMAT_ASCII || format == EXIF_FORMAT_UNDEFINED || format == EXIF_FORMAT_BYTE else {
            return nil
        }
        guard let bytes = entry.pointee.data, entry.pointee.size > 0 else { return [] }
        let value = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let end = value.firstIndex(of: 0) ?? value.count
        return Array(value[..<end])
    }

    /// The first component of a SHORT (or, when allowed, LONG or SLONG bit pattern) tag in the block's byte order.
    private static func integer(
        _ content: UnsafeMutablePointer<ExifContent>?, _ tag: ExifTag, _ order: ExifByteOrder,
        allowLong: Bool, allowSignedLong: Bool = false
    ) -> UInt32? {
        guard let content, let entry = exif_content_get_entry(content, tag),
            entry.pointee.components >= 1, let bytes = entry.pointee.data
        else { return nil }
        let format = entry.pointee.format
        let size = entry.pointee.size
        if format == EXIF_FORMAT_SHORT, size >= 2 {
            return UInt32(exif_get_short(bytes, order))
        }
        if size >= 4, (allowLong && format == EXIF_FORMAT_LONG) || (allowSignedLong && format == EXIF_FORMAT_SLONG) {
            return exif_get_long(bytes, order)
        }
        return nil
    }
}
