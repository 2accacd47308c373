import PhotoAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Store

/// One app's authorization as it is stored and shown to the owner (`io.photod.Authorization.App`).
struct AppAuthorization: Sendable, Equatable, Codable {
    /// The id the daemon derived from the kernel; never what the app declared.
    var app: String
    var uid: UInt32
    /// What the app declared about itself; shown to the owner, never used to decide anything.
    var label: String?
    var status: AuthorizationStatus
    /// The reason the app gave with its last request that reached the owner.
    var reason: String?
    var requestedAt: Date?
    /// When the owner last decided or reset; a policy restriction does not change it.
    var decidedAt: Date?
    /// For limited: the asset ids the app may see. Kept while restricted, so that lifting the
    /// restriction gives the app back exactly what it had.
    var assets: [String]
    /// For limited: the group names the app may see, each the group of that description (never
    /// the fallback group, which `fallback` selects).
    var groups: [String]
    /// For limited: true when the app may see the fallback group; nil otherwise (and in records
    /// decided before it existed, whose name of the fallback meant both groups until
    /// `FallbackSelectionUpgrade` made that explicit).
    var fallback: Bool?
    /// Whether a request waits for the owner.
    var pending: Bool
    /// While restricted: the status the policy overrode, restored when the policy lets go.
    var statusBeforeRestriction: AuthorizationStatus?
    /// The app id of the owner's client that made the last decision or reset.
    var decidedBy: String?
    /// The add-only level, when the app ever asked for it or the owner decided it (see `add`).
    var addOnly: AddOnlyGrant?
    /// The levels the app marked required in its last request with needs; shown to the owner.
    var required: [AccessLevel]? = nil
    /// The photos the owner picked for the app (`Pick`), in the order picked, each once; nil
    /// when none, so records without picks store as before. Kept apart from `assets`: a new
    /// limited selection or a status change does not touch them, only `Unpick`, `Reset` and `Remove`.
    var picked: [String]?

    /// Creates a record; a new app starts notDetermined with nothing asked and nothing chosen.
    init(
        app: String,
        uid: UInt32,
        label: String? = nil,
        status: AuthorizationStatus = .notDetermined,
        reason: String? = nil,
        requestedAt: Date? = nil,
        decidedAt: Date? = nil,
        assets: [String] = [],
        groups: [String] = [],
        fallback: Bool? = nil,
        pending: Bool = false,
        statusBeforeRestriction: AuthorizationStatus? = nil,
        decidedBy: String? = nil,
        addOnly: AddOnlyGrant? = nil,
        picked: [String]? = nil
    ) {
        self.app = app
        self.uid = uid
        self.label = label
        self.status = status
        self.reason = reason
        self.requestedAt = requestedAt
        self.decidedAt = decidedAt
        self.assets = assets
        self.groups = groups
        self.fallback = fallback
        self.pending = pending
        self.statusBeforeRestriction = statusBeforeRestriction
        self.decidedBy = decidedBy
        self.addOnly = addOnly
        self.picked = picked
    }

    /// What the app may see now, derived from its status and selection.
    var visibility: Visibility {
        switch status {
        case .notDetermined, .denied, .restricted: .none
        case .authorized: .all
        case .limited: .selection(assets: Set(assets), groups: Set(groups), fallback: fallback ?? false)
        }
    }
}

extension AppAuthorization {
    /// The record as the wire shows it (`io.photod.Authorization.App`).
    var wire: App {
        App(id: app, uid: Int(uid), label: label, status: status, reason: reason,
            requestedAt: requestedAt.map(Self.isoTime), decidedAt: decidedAt.map(Self.isoTime),
            assets: assets, groups: groups, fallback: status == .limited ? fallback ?? false : nil, pending: pending,
            decidedBy: decidedBy, warning: AppWarning.text(for: app), addOnly: add.wire(isoTime: Self.isoTime),
            picked: pickedIDs.isEmpty ? nil : pickedIDs.count, required: required)
    }

    /// The key the record is kept under.
    var key: AppKey { AppKey(uid: uid, id: app) }

    /// Whether `other` records the same decision: what the apps backup exists to keep. A
    /// request's reason, label, time and pending flag are the app's, and not part of it.
    func sameDecision(as other: AppAuthorization) -> Bool {
        status == other.status && assets == other.assets && groups == other.groups && fallback == other.fallback
            && statusBeforeRestriction == other.statusBeforeRestriction && decidedAt == other.decidedAt
            && decidedBy == other.decidedBy && add.status == other.add.status
            && add.statusBeforeRestriction == other.add.statusBeforeRestriction && add.decidedAt == other.add.decidedAt
            && add.decidedBy == other.add.decidedBy && pickedIDs == other.pickedIDs
    }

    /// A time as the wire writes it (UTC, ISO 8601).
    static func isoTime(_ date: Date) -> String {
        ISOTime.utcString(nanoseconds: Int64(date.timeIntervalSince1970 * 1_000_000_000))
    }
}
