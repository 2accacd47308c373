/// Why a `Watch` event was sent.
enum AuthorizationEventKind: String, Sendable, Codable, CaseIterable {
    case requested, decided, reset, selectionChanged, cancelled
}

/// One `io.photod.Authorization.Watch` event: what happened and the app as it is afterwards.
struct AuthorizationEvent: Sendable, Equatable, Codable {
    var kind: AuthorizationEventKind
    var app: AppAuthorization
}
