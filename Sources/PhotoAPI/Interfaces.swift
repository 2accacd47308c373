/// The varlink interface texts photod serves, embedded from `interface/*.varlink` at build time.
///
/// The `.varlink` files are the single source of truth: they are what
/// `org.varlink.service.GetInterfaceDescription` returns and what outside clients rely on.
public enum InterfaceText {
    /// The `io.photod.Library` IDL.
    public static let library = String(decoding: PackageResources.io_photod_Library_varlink, as: UTF8.self)
    /// The `io.photod.Authorization` IDL.
    public static let authorization = String(decoding: PackageResources.io_photod_Authorization_varlink, as: UTF8.self)
}
