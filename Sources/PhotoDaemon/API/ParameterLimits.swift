import Varlink

/// The most UTF-8 bytes photod accepts in each string a client sends (the IDL documents them).
///
/// Bytes, not characters: one grapheme cluster can be any number of bytes (a base letter with
/// thousands of combining marks), so a character count bounds nothing. Longer input is refused
/// with `InvalidParameter` naming the parameter, never cut short: a truncated reason or group
/// name would say something other than what was sent.
enum ParameterLimits {
    /// Why an app asks; the owner reads it in a prompt.
    static let reason = 1000
    /// The name an app gives itself.
    static let label = 200
    /// An app id, or the part of one the owner types; the resolver refuses ids longer than this,
    /// so every app photod knows can be named.
    static let app = 1024
    /// An asset id (photod's are 16 bytes).
    static let assetID = 64
    /// A group name: descriptions can be long (a JPEG's Exif block holds up to 64 KiB).
    static let groupName = 65_536
    /// A `ListAssets` cursor: photod's own carry a path and a group key, base64-encoded twice.
    static let cursor = 262_144
    /// A library root (PATH_MAX).
    static let root = 4096
    /// A path to look an asset up by (PATH_MAX).
    static let path = 4096
    /// What a search looks for: words, not documents.
    static let searchText = 1000
    /// A date or date-time bound of `ListAssets` (the longest form is 25 bytes).
    static let dateBound = 64
    /// What a person typed of a word to complete (a root is the longest such word).
    static let completionPrefix = 4096

    /// Refuses `value` when it is longer than `maximum` bytes.
    static func check(_ value: String?, atMost maximum: Int, _ parameter: String) throws(VarlinkError) {
        guard let value, value.utf8.count > maximum else { return }
        throw VarlinkError.invalidParameter(parameter)
    }

    /// Refuses any of `values` longer than `maximum` bytes.
    static func check(_ values: [String]?, atMost maximum: Int, _ parameter: String) throws(VarlinkError) {
        for value in values ?? [] { try check(value, atMost: maximum, parameter) }
    }
}
