#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// How much authorization state photod keeps, so that no app can grow it without bound and
/// `ListApps` always fits in one reply.
///
/// `ListApps` sends every record in one varlink message, and clients (photoctl, the reference
/// Python client) refuse replies over 16 MiB. With at most 1,000 records of at most 8 KiB each
/// as JSON, the reply is at most 1,000 × (8,192 + 1) + 64 bytes ≈ 8.2 MB: under half the limit.
/// Every string in a record has its own byte limit too (`ParameterLimits`), but JSON spells a
/// control character in 6 bytes, so the record as a whole is measured: a request whose record
/// would pass 8 KiB is refused (`InvalidParameter`), and so is a decision whose selection
/// would (`InvalidDecision`; a group covers any number of photos in a few bytes). The photos
/// picked for an app are stored with its record but sent only as a count, so they do not count
/// here: they have their own cap (`PickedPhotos.maximumPerApp`).
enum AuthorizationLimits {
    /// App records kept at most; a new app asking beyond it gets `TooManyApps`.
    static let maximumApps = 1000
    /// The largest record, measured as `ListApps` sends it.
    static let maximumRecordBytes = 8192
    /// New requests (prompts) one app may start at once (`RequestBucket`)...
    static let requestBurst = 5
    /// ...and then one per this many seconds.
    static let requestInterval: TimeInterval = 12

    /// The record's size as `ListApps` sends it.
    static func wireBytes(_ record: AppAuthorization) -> Int {
        (try? JSONEncoder().encode(record.wire).count) ?? Int.max
    }

    /// Whether the record fits the per-record budget.
    static func fits(_ record: AppAuthorization) -> Bool {
        wireBytes(record) <= maximumRecordBytes
    }
}
