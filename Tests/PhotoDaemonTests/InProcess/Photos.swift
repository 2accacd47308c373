import PhotoTestSupport

/// Small real JPEGs for the in-process tests.
enum TestPhoto {
    /// A JPEG whose EXIF description is `description` (none: it files under `Other`).
    static func jpeg(_ description: String?) -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description, dateTimeOriginal: "2021:07:04 10:30:00"))
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held.
/// The default only bounds a test that fails: the whole suite shares two cores.
func eventually(within seconds: Double = 30, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
