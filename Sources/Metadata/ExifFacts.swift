/// The raw EXIF values the reader uses, before any validation.
struct ExifFacts {
    var description: [UInt8]?
    var make: [UInt8]?
    var model: [UInt8]?
    var orientation: UInt32?
    var dateTimeOriginal: [UInt8]?
    var offsetTimeOriginal: [UInt8]?
    var pixelXDimension: UInt32?
    var pixelYDimension: UInt32?

    /// Orientation only when it names one of the eight defined transforms.
    var validOrientation: Int? {
        guard let orientation, (1...8).contains(orientation) else { return nil }
        return Int(orientation)
    }

    /// Both EXIF pixel dimensions, or nothing: half a size is no use to anyone.
    var pixelSize: (width: Int, height: Int)? {
        guard let width = pixelXDimension, let height = pixelYDimension, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// Make or Model with the camera's space padding removed; nil when nothing is left.
    static func trimmedName(_ bytes: [UInt8]?) -> [UInt8]? {
        guard let bytes, let last = bytes.lastIndex(where: { $0 != 0x20 }) else { return nil }
        return last == bytes.count - 1 ? bytes : Array(bytes[...last])
    }
}
