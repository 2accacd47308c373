import PhotoTestSupport

/// Small real JPEGs for the in-process tests.
enum TestPhoto {
    /// A JPEG whose EXIF description is `description` (none: it files under `Other`).
    static func jpeg(_ description: String?) -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description, dateTimeOriginal: "2021:07:04 10:30:00"))
    }
}
