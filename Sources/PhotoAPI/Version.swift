/// The photod release version, reported by `Status` and `GetInfo`.
public enum PhotodVersion {
    /// The version string.
    public static let current = "0.1.0"
}
