#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// A change to photos an app asked for (its `SetDescription`), waiting for the owner.
struct PendingChange: OwnerRequest, Equatable, Codable {
    /// photod's name for it (`change-N`), never reused while photod runs.
    let id: String
    /// The app that asked.
    let app: AppKey
    /// The photos, by asset id, each one the app could see when it asked.
    let ids: [String]
    /// The description to write; nil clears it.
    let description: String?
    let requestedAt: Date
    /// When it ends unanswered.
    let expiresAt: Date

    /// The request as the wire shows it, with the app's record `app`.
    func wire(app record: App) -> ChangeRequest {
        ChangeRequest(id: id, app: record, ids: ids, description: description,
                      requestedAt: AppAuthorization.isoTime(requestedAt), expiresAt: AppAuthorization.isoTime(expiresAt))
    }
}
