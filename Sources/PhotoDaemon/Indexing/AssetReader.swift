import FileSystem
import Metadata
import Store

/// Reads one file into what the index stores: opens it safely, extracts metadata, picks the
/// description by the configured source order, files it.
struct AssetReader: Sendable {
    /// What reading a path produced.
    enum Outcome: Sendable {
        /// An image: its current stamp and content.
        case asset(FileStamp, AssetContent)
        /// Not an image (by its bytes, and without an image name), or a sidecar: not part of the library.
        case notAnImage
        /// Could not be opened (vanished, permissions, not a regular file any more).
        case unreadable(FileSystemError)
    }

    /// How the image's XMP sidecar is found.
    enum SidecarLookup: Sendable {
        /// Look on disk (a live event: one file at a time).
        case onDisk
        /// Already looked up (from a walk's listing, or just before the read): this one, or nil for none.
        case known((path: PathBytes, signature: Int64)?)
    }

    let rules: GroupingRules
    /// Description sources, first usable one wins.
    let sources: [Metadata.DescriptionSource]

    /// Names under which an unrecognisable file is still kept as an asset (a truncated or
    /// zero-byte photo is still the user's photo); the format itself always comes from the bytes.
    private static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "tif", "tiff", "webp", "heic", "heif", "avif", "gif", "bmp", "jxl",
        "jp2", "dng", "nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw", "raf",
        "raw", "mrw", "x3f", "iiq", "3fr", "erf", "kdc", "mos", "psd", "btf",
    ]

    init(rules: GroupingRules, sources: [Metadata.DescriptionSource] = DescriptionSources.defaultOrder) {
        self.rules = rules
        self.sources = sources
    }

    /// Reads `path`, opened through real folders only; `opener` keeps the last folder open for
    /// the next file in it (a scan reads a folder's files one after another), as `head` does the
    /// buffer for files' first bytes.
    func read(_ path: PathBytes, sidecar lookup: SidecarLookup = .onDisk, opener: SafeOpener = SafeOpener(),
              head: HeadBuffer? = nil) -> Outcome {
        // A sidecar is metadata about another file, never a photo of its own.
        guard !Sidecar.isSidecar(path) else { return .notAnImage }
        let file: OpenFile
        switch opener.openRegularFile(path) {
        case .success(let opened): file = opened
        case .failure(let error): return .unreadable(error)
        }
        let info = file.info
        let metadata = MetadataReader.read(fileDescriptor: file.fileDescriptor, fileSize: Int(info.size), reusing: head)
        guard metadata.format != nil || Self.hasImageExtension(path) else { return .notAnImage }
        let sidecar: (path: PathBytes, signature: Int64)?
        switch lookup {
        case .onDisk: sidecar = sources.contains(.sidecar) ? Sidecar.find(for: path, opener: opener) : nil
        case .known(let known): sidecar = sources.contains(.sidecar) ? known : nil
        }
        var stamp = FileStamp(info)
        stamp.sidecar = sidecar?.signature ?? 0
        var content = content(from: metadata, sidecar: sidecar?.path)
        if content.descriptionSource == Metadata.DescriptionSource.sidecar.rawValue, let found = sidecar?.path {
            content.sidecarCandidate = Sidecar.candidates(for: path).firstIndex(of: found)
        }
        return .asset(stamp, content)
    }

    /// The stored content for `metadata`; the sidecar at `sidecar` is read only if the order reaches it.
    func content(from metadata: ImageMetadata, sidecar: PathBytes? = nil) -> AssetContent {
        let (description, source, group) = chooseDescription(metadata.descriptions) { sidecar.flatMap(Self.sidecarDescription) }
        return AssetContent(
            groupKey: group.key,
            groupSpelling: group.spelling,
            description: description,
            descriptionSource: source?.rawValue,
            format: metadata.format?.rawValue ?? "unknown",
            taken: metadata.taken,
            takenNs: metadata.taken.flatMap(ISOTime.nanoseconds(from:)),
            width: metadata.width,
            height: metadata.height,
            orientation: metadata.orientation,
            make: metadata.make.map(Self.trimmedText),
            model: metadata.model.map(Self.trimmedText))
    }

    /// The description and its source this reader would choose from `candidates` and a sidecar
    /// holding `sidecarText`: what the description writer checks its result against.
    func chosenDescription(_ candidates: DescriptionCandidates, sidecarText: [UInt8]?) -> (text: String?, source: Metadata.DescriptionSource?) {
        let (text, source, _) = chooseDescription(candidates) { sidecarText }
        return (text, source)
    }

    /// The first description that names a group, and the group; failing that, the first one
    /// found at all (an empty or boilerplate text is still shown) and the fallback group. The
    /// sidecar is read only if the order reaches it.
    private func chooseDescription(
        _ candidates: DescriptionCandidates, sidecarText: () -> [UInt8]?
    ) -> (String?, Metadata.DescriptionSource?, GroupAssignment) {
        var firstFound: (String, Metadata.DescriptionSource)?
        let fallback = rules.fallback
        for source in sources {
            let raw = source == .sidecar ? sidecarText() : candidates[source]
            guard let raw else { continue }
            let text = DescriptionText.decode(raw)
            // The assignment is the fallback exactly when the text names no group (`isUsable`).
            let group = rules.assign(text: text)
            if group != fallback { return (text, source, group) }
            if firstFound == nil { firstFound = (text, source) }
        }
        return (firstFound?.0, firstFound?.1, fallback)
    }

    private static func sidecarDescription(_ path: PathBytes) -> [UInt8]? {
        guard case .success(let file) = FileSystem.openRegularFile(path) else { return nil }
        return XMPPacket.description(fileDescriptor: file.fileDescriptor, fileSize: Int(file.info.size))
    }

    /// Make and Model as ExifTool shows them: decoded, trailing spaces dropped.
    private static func trimmedText(_ bytes: [UInt8]) -> String {
        var text = DescriptionText.decode(bytes)
        // Most end in a letter or digit: no Unicode property lookup for them.
        if let last = text.utf8.last, last < 0x80, last != 0x20, !(0x09...0x0D).contains(last) { return text }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    static func hasImageExtension(_ path: PathBytes) -> Bool {
        guard let suffix = path.nameExtension, suffix.count <= 5 else { return false }
        return imageExtensions.contains(String(decoding: suffix, as: UTF8.self).lowercased())
    }
}

/// The description sources setting: which of EXIF, XMP, IPTC and the sidecar are consulted, in order.
enum DescriptionSources {
    /// EXIF first (what the camera or the photographer's tool wrote into the image), the sidecar last.
    static let defaultOrder: [Metadata.DescriptionSource] = [.exif, .xmp, .iptc, .sidecar]

    /// A stable text form; when it changes, every file is read again.
    static func fingerprint(_ order: [Metadata.DescriptionSource]) -> String {
        "v1|" + order.map(\.rawValue).joined(separator: ",")
    }
}
