import Store

/// The rules that file an asset into a group (README, "Groups").
public struct GroupingRules: Sendable, Equatable {
    /// Name of the group for assets without a usable description.
    public var fallbackName: String
    /// When true, "Beach" and "beach" are one group, shown in its most common spelling.
    public var caseInsensitive: Bool
    /// Camera default descriptions that count as no description.
    public var boilerplate: [String]

    private var boilerplateKeys: Set<String>

    /// The defaults of `config/photod.toml`: what cameras write into ImageDescription when
    /// nobody wrote a caption. Gathered from the lists photo managers keep for the same purpose:
    /// digiKam (`MetaEngine::getExifComment`, core/libs/metadataengine/engine/metaengine_exif.cpp:
    /// SONY DSC, OLYMPUS and MINOLTA DIGITAL CAMERA), KPhotoAlbum (`commentsToStrip`:
    /// Exif_JPEG_PICTURE, JENOPTIK DIGITAL CAMERA), gThumb (`useless_comment_filter`: KONICA
    /// MINOLTA DIGITAL CAMERA), PhotoPrism (`UnwantedDescriptions`: SAMSUNG CAMERA PICTURES,
    /// <Digimax i5, Samsung #1>) and iNaturalist (`BRANDED_DESCRIPTIONS`: KODAK Digital Still
    /// Camera, <KENOX S1050 / Samsung S1050>); the rest (LEICA DIGITAL CAMERA, PENTAX Image,
    /// Digital image, EASYSHARE, <KENOX S630  / Samsung S630>, DCIM, Picasa) are other cameras'
    /// and programs' defaults that issue 15 found in real libraries. ExifTool keeps no such
    /// list: it reports what the file says. Compared after normalization and ignoring case, so
    /// "SONY DSC" padded with blanks, "SAMSUNG DIGITAL CAMERA" and the KENOX string with its
    /// double space written either way all match. The maker strings "SANYO/NIKON/PENTAX/FUJIFILM
    /// DIGITAL CAMERA" (the makernote signatures ExifTool recognises) and GE's and Casio's are
    /// what those cameras write as ImageDescription too (the corpus has SANYO's and GE's).
    public static let defaultBoilerplate = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KODAK Digital Still Camera", "default",
        "KONICA MINOLTA DIGITAL CAMERA", "MINOLTA DIGITAL CAMERA", "SAMSUNG CAMERA PICTURES",
        "Samsung Digital Camera", "LEICA DIGITAL CAMERA", "JENOPTIK DIGITAL CAMERA", "PENTAX Image",
        "Digital image", "Picasa", "EASYSHARE", "<KENOX S630  / Samsung S630>", "<KENOX S1050 / Samsung S1050>",
        "<Digimax i5, Samsung #1>", "DCIM", "Exif_JPEG_PICTURE", "SANYO DIGITAL CAMERA", "NIKON DIGITAL CAMERA",
        "PENTAX DIGITAL CAMERA", "FUJIFILM DIGITAL CAMERA", "GE DIGITAL CAMERA", "CASIO DIGITAL CAMERA",
    ]

    /// The built-in list before the camera strings above were added. An index built with
    /// it stored its description choice without the list (see `Regrouper`), so it stays the
    /// reference that fingerprint is compared with.
    public static let firstDefaultBoilerplate = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KODAK Digital Still Camera", "default",
    ]

    /// Creates rules; boilerplate entries are normalized and compared case-insensitively.
    public init(fallbackName: String = "Other", caseInsensitive: Bool = false,
                boilerplate: [String] = GroupingRules.defaultBoilerplate) {
        self.fallbackName = fallbackName
        self.caseInsensitive = caseInsensitive
        self.boilerplate = boilerplate
        boilerplateKeys = Set(boilerplate.map { DescriptionText.normalize($0).lowercased() })
    }

    /// Where an asset with this description (raw bytes, nil when none) is filed.
    public func assign(description: [UInt8]?) -> GroupAssignment {
        assign(text: description.map(DescriptionText.decode))
    }

    /// Whether a decoded description names a group: not empty after normalization, not camera boilerplate.
    public func isUsable(_ text: String) -> Bool {
        let normalized = DescriptionText.normalize(text)
        return !normalized.isEmpty && !boilerplateKeys.contains(normalized.lowercased())
    }

    /// Where an asset with this decoded description is filed.
    public func assign(text: String?) -> GroupAssignment {
        guard let text else { return fallback }
        let normalized = DescriptionText.normalize(text)
        let folded = normalized.lowercased()
        if normalized.isEmpty || boilerplateKeys.contains(folded) { return fallback }
        return GroupAssignment(key: caseInsensitive ? folded : normalized, spelling: normalized)
    }

    /// The fallback group's assignment.
    public var fallback: GroupAssignment {
        GroupAssignment(key: fallbackKey, spelling: fallbackName)
    }

    /// The key of the fallback group: never the key of a description, whatever its text.
    public var fallbackKey: String { StoredGroup.fallbackKey }

    /// The key of the group of descriptions that read `name` (not the fallback group's: an
    /// empty name gives the fallback's key, which callers treat as naming no description).
    public func key(forName name: String) -> String {
        let normalized = DescriptionText.normalize(name)
        return caseInsensitive ? normalized.lowercased() : normalized
    }

    /// Whether a user-typed name is the fallback group's name (as the rules compare names).
    public func namesFallback(_ name: String) -> Bool {
        let key = key(forName: name)
        return !key.isEmpty && key == self.key(forName: fallbackName)
    }

    /// A stable text form of the rules; the index is regrouped when it changes. v2: the
    /// fallback group has a key of its own (v1 filed it under its name, so a photo described
    /// "Other" shared it); an index built with v1 is regrouped, and its limited selections that
    /// named the fallback are kept meaning both groups (`Regrouper`).
    public var fingerprint: String {
        "\(Self.fingerprintVersion)|fallback=\(fallbackName)|ci=\(caseInsensitive)|boilerplate=\(boilerplateFingerprint)"
    }

    /// The first field of `fingerprint`.
    static let fingerprintVersion = "v2"

    /// Whether a stored fingerprint is from rules that filed the fallback group under its name.
    static func fallbackSharedItsName(fingerprint: String) -> Bool {
        fingerprint.hasPrefix("v1|")
    }

    /// A stable text form of the boilerplate list alone, which decides which description is usable.
    public var boilerplateFingerprint: String {
        boilerplateKeys.sorted().joined(separator: "\u{1F}")
    }

    /// Rules are equal when they file every description the same way.
    public static func == (lhs: GroupingRules, rhs: GroupingRules) -> Bool {
        lhs.fallbackName == rhs.fallbackName && lhs.caseInsensitive == rhs.caseInsensitive
            && lhs.boilerplateKeys == rhs.boilerplateKeys
    }
}

/// A group key and this asset's spelling of the group's name.
public struct GroupAssignment: Sendable, Equatable {
    public var key: String
    public var spelling: String
}
