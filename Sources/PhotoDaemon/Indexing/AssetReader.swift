import FileSystem
import Metadata
import Store

/// Reads one file into what the index stores: opens it safely, extracts metadata, files it.
struct AssetReader: Sendable {
    /// What reading a path produced.
    enum Outcome: Sendable {
        /// An image: its current stamp and content.
        case asset(FileStamp, AssetContent)
        /// Not an image (by its bytes, and without an image name): not part of the library.
        case notAnImage
        /// Could not be opened (vanished, permissions, not a regular file any more).
        case unreadable(FileSystemError)
    }

    let rules: GroupingRules

    /// Names under which an unrecognisable file is still kept as an asset (a truncated or
    /// zero-byte photo is still the user's photo); the format itself always comes from the bytes.
    private static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "bmp", "jxl",
        "jp2", "dng", "nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw", "raf",
        "raw", "mrw", "x3f", "iiq", "3fr", "erf", "kdc", "mos", "psd", "btf",
    ]

    func read(_ path: [UInt8]) -> Outcome {
        let file: OpenFile
        switch FileSystem.openRegularFile(path) {
        case .success(let opened): file = opened
        case .failure(let error): return .unreadable(error)
        }
        let info = file.info
        let metadata = MetadataReader.read(fileDescriptor: file.fileDescriptor, fileSize: Int(info.size))
        guard metadata.format != nil || Self.hasImageExtension(path) else { return .notAnImage }
        let stamp = FileStamp(info)
        return .asset(stamp, content(from: metadata))
    }

    func content(from metadata: ImageMetadata) -> AssetContent {
        let description = metadata.description.map(DescriptionText.decode)
        let group = rules.assign(text: description)
        return AssetContent(
            groupKey: group.key,
            groupSpelling: group.spelling,
            description: description,
            descriptionSource: description == nil ? nil : metadata.descriptionSource?.rawValue,
            format: metadata.format?.rawValue ?? "unknown",
            taken: metadata.taken,
            takenNs: metadata.taken.flatMap(ISOTime.nanoseconds(from:)),
            width: metadata.width,
            height: metadata.height,
            orientation: metadata.orientation,
            make: metadata.make.map(Self.trimmedText),
            model: metadata.model.map(Self.trimmedText))
    }

    /// Make and Model as ExifTool shows them: decoded, trailing spaces dropped.
    private static func trimmedText(_ bytes: [UInt8]) -> String {
        var text = DescriptionText.decode(bytes)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    static func hasImageExtension(_ path: [UInt8]) -> Bool {
        guard let dot = path.lastIndex(of: UInt8(ascii: ".")),
              !path[dot...].contains(UInt8(ascii: "/")) else { return false }
        let suffix = path[path.index(after: dot)...]
        guard suffix.count <= 5 else { return false }
        return imageExtensions.contains(String(decoding: suffix, as: UTF8.self).lowercased())
    }
}
