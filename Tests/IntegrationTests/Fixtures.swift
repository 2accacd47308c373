import Foundation
import PhotoTestSupport

/// Small JPEGs with EXIF, written by the tests themselves.
enum Photo {
    static func jpeg(_ description: String?, taken: String? = "2021:07:04 10:30:00", make: String? = "Canon",
                     model: String? = "EOS 5D", width: Int = 8, height: Int = 8) -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description, dateTimeOriginal: taken, orientation: 1,
                                           make: make, model: model), width: width, height: height)
    }

    static func jpeg(bytes description: [UInt8]) -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description))
    }
}

/// JSON helpers for photoctl's output.
extension Dictionary where Key == String, Value == Any {
    var groupCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for group in self["groups"] as? [[String: Any]] ?? [] {
            if let name = group["name"] as? String, let count = group["count"] as? Int { counts[name] = count }
        }
        return counts
    }

    var assets: [[String: Any]] { self["assets"] as? [[String: Any]] ?? [] }

    /// Ids of the assets under `root`, by path relative to it.
    func ids(relativeTo root: String) -> [String: String] {
        var ids: [String: String] = [:]
        for asset in assets {
            if let path = asset["path"] as? String, let id = asset["id"] as? String, path.hasPrefix(root + "/") {
                ids[String(path.dropFirst(root.count + 1))] = id
            }
        }
        return ids
    }

    /// The JSON object photoctl wrote to `file`.
    static func read(_ file: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any] ?? [:]
    }
}

/// A 640×480 JPEG whose EXIF carries a 160×120 thumbnail: photod answers `fast` image
/// requests for it from the file itself, without a worker.
enum ThumbnailedPhoto {
    /// The embedded thumbnail, byte for byte.
    static let thumbnail = JPEGFixture.make(exif: nil, width: 160, height: 120)

    /// The whole photo; `description` picks its group.
    static func jpeg(_ description: String = "x") -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description, thumbnail: thumbnail), width: 640, height: 480)
    }
}

/// Reads a whole file as bytes (test files are small).
func fileBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
