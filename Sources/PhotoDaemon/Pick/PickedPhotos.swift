/// How many photos photod keeps picked for one app, and the record's view of them.
///
/// The ids live in the stored record (so they survive a restart and go with `Remove`), but the
/// wire `App` carries only their count: `AuthorizationLimits.fits` measures the record as
/// `ListApps` sends it, so picks never make `ListApps` larger, and need a cap of their own.
enum PickedPhotos {
    /// Picked photos kept per app at most; an answer that would pass it is refused
    /// (`InvalidDecision`), never made room for by dropping older picks the app relies on.
    static let maximumPerApp = 10_000
}

extension AppAuthorization {
    /// The photos picked for the app, in the order picked; setting none drops the field from
    /// the stored record.
    var pickedIDs: [String] {
        get { picked ?? [] }
        set { picked = newValue.isEmpty ? nil : newValue }
    }
}
