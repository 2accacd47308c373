import PhotoAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app's add-only access (PhotoKit's `.addOnly` level), decided apart from its readWrite status.
///
/// Kept inside the app's record, so one row, one backup entry and one machine hold both levels;
/// absent from records stored before levels existed, which reads as never asked.
struct AddOnlyGrant: Sendable, Equatable, Codable {
    /// notDetermined, restricted, denied or authorized; never limited (adding has no selection).
    var status: AuthorizationStatus = .notDetermined
    /// The reason the app gave with its last add-only request.
    var reason: String?
    var requestedAt: Date?
    var decidedAt: Date?
    /// The app id of the owner's client that made the last decision or reset.
    var decidedBy: String?
    /// Whether an add-only request waits for the owner.
    var pending = false
    /// While restricted: the status the policy overrode.
    var statusBeforeRestriction: AuthorizationStatus?

    /// The level as the wire shows it (`io.photod.Authorization.AddOnlyAccess`).
    func wire(isoTime: (Date) -> String) -> AddOnlyAccess {
        AddOnlyAccess(status: status, pending: pending, reason: reason, requestedAt: requestedAt.map(isoTime),
                      decidedAt: decidedAt.map(isoTime), decidedBy: decidedBy)
    }
}

extension AppAuthorization {
    /// The add-only level; setting it back to never-asked drops it from the stored record.
    var add: AddOnlyGrant {
        get { addOnly ?? AddOnlyGrant() }
        set { addOnly = newValue == AddOnlyGrant() ? nil : newValue }
    }

    /// What the app may do at `level` now: readWrite authorized or limited includes adding.
    func effectiveStatus(at level: AccessLevel) -> AuthorizationStatus {
        switch level {
        case .readWrite: status
        case .addOnly: status.grantsAccess ? .authorized : add.status
        }
    }

    /// Whether the app may add photos (`Import`).
    var mayAdd: Bool { effectiveStatus(at: .addOnly) == .authorized }
}
