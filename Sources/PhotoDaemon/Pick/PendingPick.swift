#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// An app's request that the owner choose photos for it (its `Pick`), waiting for the owner.
struct PendingPick: OwnerRequest, Equatable, Codable {
    /// photod's name for it (`pick-N`), never reused while photod runs.
    let id: String
    /// The app that asked.
    let app: AppKey
    /// The app's words, bounded by `Pick`'s limits.
    let reason: String
    let label: String?
    /// The most photos the owner may choose.
    let limit: Int
    /// The groups the picker opens on, by name, as the app gave them (unchecked: telling the app
    /// which exist would show it the library).
    let groups: [String]
    let requestedAt: Date
    /// When it ends unanswered.
    let expiresAt: Date

    /// The request as the wire shows it, with the app's record `app`.
    func wire(app record: App) -> PickRequest {
        PickRequest(id: id, app: record, reason: reason, label: label, limit: limit, groups: groups,
                    requestedAt: AppAuthorization.isoTime(requestedAt), expiresAt: AppAuthorization.isoTime(expiresAt))
    }
}

/// How a waiting pick ended, as its app hears it.
enum PickOutcome: Sendable, Equatable {
    /// The owner chose these photos, in order.
    case picked([String])
    /// It ended without photos: cancelled (denied), expired, or revoked.
    case ended(ChangeAnswer)
}
