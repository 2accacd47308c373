/// Names of the `io.photod.Authorization` interface, its methods and its errors.
public enum AuthorizationInterface {
    /// The interface name.
    public static let name = "io.photod.Authorization"


    /// Qualified error names.
    public enum Error {
        public static let ownerOnly = "io.photod.Authorization.OwnerOnly"
        public static let unknownApp = "io.photod.Authorization.UnknownApp"
        public static let restricted = "io.photod.Authorization.Restricted"
        public static let invalidDecision = "io.photod.Authorization.InvalidDecision"
        public static let tooManyApps = "io.photod.Authorization.TooManyApps"
        public static let confirmationRequired = "io.photod.Authorization.ConfirmationRequired"
        public static let noSuchGroup = "io.photod.Authorization.NoSuchGroup"
        public static let noSuchAsset = "io.photod.Authorization.NoSuchAsset"
        public static let tooManyRequests = "io.photod.Authorization.TooManyRequests"
    }
}

/// What an app may do with the library, PhotoKit's five authorization statuses.
public enum AuthorizationStatus: String, Sendable, Codable, CaseIterable {
    case notDetermined, restricted, denied, authorized, limited

    /// Whether the owner may set this status with a decision; the others come from a
    /// reset (notDetermined) or from the policy (restricted).
    public var isDecision: Bool {
        switch self {
        case .authorized, .limited, .denied: true
        case .notDetermined, .restricted: false
        }
    }

    /// Whether the app sees any of the library.
    public var grantsAccess: Bool { self == .authorized || self == .limited }
}

/// An app as the daemon identified it (`io.photod.Authorization.App`).
public struct App: Codable, Sendable, Equatable {
    public var id: String
    public var uid: Int
    /// What the app declared about itself; a label only.
    public var label: String?
    public var status: AuthorizationStatus
    /// The reason the app gave with its last request.
    public var reason: String?
    public var requestedAt: String?
    public var decidedAt: String?
    /// For limited: the asset ids the app may see.
    public var assets: [String]
    /// For limited: the group names the app may see (groups of those descriptions).
    public var groups: [String]
    /// For limited: whether the app may see the fallback group, which `groups` never names.
    public var fallback: Bool?
    public var pending: Bool
    /// The app id of the owner's client that made the last decision or reset.
    public var decidedBy: String?
    /// Plain words the owner reads before allowing, when a decision about this id reaches
    /// further than one program (an interpreter without a script); allowing needs `confirmed`.
    public var warning: String?

    /// Creates an app value.
    public init(id: String, uid: Int, label: String? = nil, status: AuthorizationStatus, reason: String? = nil,
                requestedAt: String? = nil, decidedAt: String? = nil, assets: [String] = [], groups: [String] = [],
                fallback: Bool? = nil, pending: Bool = false, decidedBy: String? = nil, warning: String? = nil) {
        self.id = id
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
        self.decidedBy = decidedBy
        self.warning = warning
    }
}

/// Why a `Watch` event was sent.
public enum AuthorizationEventKind: String, Sendable, Codable, CaseIterable {
    /// `removed`: the owner deleted the app's record (`Remove`); the app starts over.
    case requested, decided, reset, selectionChanged, cancelled, removed
}

/// One `io.photod.Authorization.Watch` event.
public struct AuthorizationEventReply: Codable, Sendable, Equatable {
    /// The event: what happened and the app as it is afterwards.
    public struct Event: Codable, Sendable, Equatable {
        public var kind: AuthorizationEventKind
        public var app: App

        /// Creates an event.
        public init(kind: AuthorizationEventKind, app: App) {
            self.kind = kind
            self.app = app
        }
    }

    public var event: Event

    /// Creates the reply.
    public init(event: Event) { self.event = event }
}

/// Reply of `Status`, `Decide` and `Reset`: one app.
public struct AppReply: Codable, Sendable, Equatable {
    public var app: App

    /// Creates the reply.
    public init(app: App) { self.app = app }
}

/// Parameters of `RequestAuthorization`.
public struct RequestAuthorizationParameters: Codable, Sendable, Equatable {
    /// Why the app wants to see the library; shown to the owner.
    public var reason: String
    /// A display label the app chooses for itself.
    public var label: String?

    /// Creates the parameters.
    public init(reason: String, label: String? = nil) {
        self.reason = reason
        self.label = label
    }
}

/// Reply of `RequestAuthorization`.
public struct RequestAuthorizationReply: Codable, Sendable, Equatable {
    public var status: AuthorizationStatus
    /// True while the owner has not answered yet (only in a first reply with `more`).
    public var pending: Bool

    /// Creates the reply.
    public init(status: AuthorizationStatus, pending: Bool) {
        self.status = status
        self.pending = pending
    }
}

/// Reply of `ListApps`.
public struct ListAppsReply: Codable, Sendable, Equatable {
    public var apps: [App]

    /// Creates the reply.
    public init(apps: [App]) { self.apps = apps }
}

/// Parameters of `Decide`.
public struct DecideParameters: Codable, Sendable, Equatable {
    /// The full app id or a unique whole component of it (`calendar.sh`).
    public var app: String
    /// Whose app: needed only when apps of several users share the id.
    public var uid: Int?
    public var status: AuthorizationStatus
    public var assets: [String]?
    public var groups: [String]?
    /// The fallback group is part of the limited selection.
    public var fallback: Bool?
    /// The owner was shown the app's `warning` and agreed to allow it anyway.
    public var confirmed: Bool?

    /// Creates the parameters.
    public init(app: String, uid: Int? = nil, status: AuthorizationStatus, assets: [String]? = nil,
                groups: [String]? = nil, fallback: Bool? = nil, confirmed: Bool? = nil) {
        self.app = app
        self.uid = uid
        self.status = status
        self.assets = assets
        self.groups = groups
        self.fallback = fallback
        self.confirmed = confirmed
    }
}

/// Parameters of `Reset` and `Remove`: which app.
public struct ResetParameters: Codable, Sendable, Equatable {
    /// The full app id or a unique whole component of it.
    public var app: String
    /// Whose app: needed only when apps of several users share the id.
    public var uid: Int?

    /// Creates the parameters.
    public init(app: String, uid: Int? = nil) {
        self.app = app
        self.uid = uid
    }
}

/// Parameters of `Remove`: the same as `Reset`'s.
public typealias RemoveParameters = ResetParameters

/// Parameters of `GetApp`: the same as `Reset`'s.
public typealias GetAppParameters = ResetParameters

/// Parameters of `io.photod.Authorization.ConfirmationRequired`.
public struct ConfirmationRequiredError: Codable, Sendable, Equatable {
    /// The app's full id.
    public var app: String
    /// What allowing it would allow, in plain words.
    public var warning: String

    /// Creates the error parameters.
    public init(app: String, warning: String) {
        self.app = app
        self.warning = warning
    }
}

/// Parameters of `io.photod.Authorization.NoSuchGroup`.
public struct NoSuchGroupError: Codable, Sendable, Equatable {
    /// The group name as the owner gave it.
    public var group: String
    /// Up to five group names near it, nearest first.
    public var closest: [String]

    /// Creates the error parameters.
    public init(group: String, closest: [String]) {
        self.group = group
        self.closest = closest
    }
}

/// Parameters of `io.photod.Authorization.NoSuchAsset`.
public struct NoSuchAssetError: Codable, Sendable, Equatable {
    /// The asset id as the owner gave it.
    public var asset: String
    /// Up to five ids sharing its longest prefix.
    public var closest: [String]

    /// Creates the error parameters.
    public init(asset: String, closest: [String]) {
        self.asset = asset
        self.closest = closest
    }
}

/// Parameters of `io.photod.Authorization.TooManyApps`.
public struct TooManyAppsError: Codable, Sendable, Equatable {
    /// How many app records photod keeps at most.
    public var limit: Int
    /// What the owner can do about it.
    public var hint: String

    /// Creates the error parameters.
    public init(limit: Int, hint: String) {
        self.limit = limit
        self.hint = hint
    }
}

/// Parameters of `io.photod.Authorization.TooManyRequests`.
public struct TooManyRequestsError: Codable, Sendable, Equatable {
    /// The app refused (the id photod derived).
    public var app: String
    /// Seconds until the app may start a request again.
    public var retryAfter: Int

    /// Creates the error parameters.
    public init(app: String, retryAfter: Int) {
        self.app = app
        self.retryAfter = retryAfter
    }
}

/// Parameters of `io.photod.Authorization.UnknownApp` (and `Restricted`).
public struct UnknownAppError: Codable, Sendable, Equatable {
    public var app: String

    /// Creates the error parameters.
    public init(app: String) { self.app = app }
}

/// Parameters of `io.photod.Authorization.InvalidDecision`.
public struct InvalidDecisionError: Codable, Sendable, Equatable {
    public var reason: String

    /// Creates the error parameters.
    public init(reason: String) { self.reason = reason }
}
