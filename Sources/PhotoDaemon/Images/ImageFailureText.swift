import FileSystem
import Store

/// Why a photo has no image, in words a person reads: ImageUnavailable's reason. The decoder's
/// own message ("VipsForeignLoad: buffer is not in a known format") goes to the journal only.
struct ImageFailureText {
    /// File name extensions of camera raw formats, lower case: most are TIFF inside, so the
    /// sniffed format alone does not tell a raw from a TIFF.
    static let rawExtensions: Set<String> = [
        "3fr", "ari", "arw", "bay", "cr2", "cr3", "crw", "dcr", "dng", "erf", "fff", "iiq", "k25", "kdc",
        "mef", "mos", "mrw", "nef", "nrw", "orf", "pef", "raf", "raw", "rw2", "rwl", "sr2", "srf", "srw", "x3f",
    ]
    /// Sniffed formats that are raws whatever their name.
    static let rawFormats: Set<String> = ["cr3", "crw", "raf", "mrw", "x3f"]

    /// The raw format's name in capitals ("ARW"), nil for a file that is not a camera raw.
    let rawName: String?
    /// Whether the request was `fast`, which has tried the file's embedded preview already.
    let fast: Bool

    /// The words for `asset`, asked for in `fast` mode or not.
    init(_ asset: StoredAsset, fast: Bool) {
        let name = asset.path.lastComponent
        let dot = name.lastIndex(of: UInt8(ascii: "."))
        let fileExtension = dot.map { String(decoding: name[(name.index(after: $0))...], as: UTF8.self).lowercased() } ?? ""
        let format = asset.content.format.lowercased()
        if Self.rawExtensions.contains(fileExtension) {
            rawName = fileExtension.uppercased()
        } else if Self.rawFormats.contains(format) {
            rawName = format.uppercased()
        } else {
            rawName = nil
        }
        self.fast = fast
    }

    /// A worker could not decode the file.
    var undecodable: String {
        if let rawName {
            return fast ? "this raw file (\(rawName)) has no embedded preview photod can read, and its format cannot be decoded here"
                : "this raw format (\(rawName)) cannot be decoded here; its embedded preview is used with --fast "
                    + "(deliveryMode fast) when the file has one"
        }
        return "this file cannot be decoded: it is damaged or cut short, or a kind of image photod's decoder "
            + "does not read (photod's journal has the decoder's words)" + noPreview
    }

    /// The worker crashed or ran out of time on the file: `reason` says which, in words already.
    func workerFailed(_ reason: String) -> String {
        reason + noPreview
    }

    /// The file has a fail/ marker: it was not decoded before and is not tried again until it changes.
    var markedBefore: String {
        if rawName != nil { return undecodable + "; photod tries again once the file changes" }
        return "photod could not decode this file before (a fail/ marker in the thumbnail cache)" + noPreview
            + "; it tries again once the file changes"
    }

    /// What a fast request adds: it looked for an embedded preview and found none.
    private var noPreview: String {
        fast ? ", and it has no embedded preview photod can read" : ""
    }
}
