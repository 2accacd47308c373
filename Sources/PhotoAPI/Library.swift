/// Names of the `io.photod.Library` interface, its methods and its errors.
public enum LibraryInterface {
    /// The interface name.
    public static let name = "io.photod.Library"

    /// Qualified method names.
    public enum Method {
        public static let status = "io.photod.Library.Status"
        public static let listGroups = "io.photod.Library.ListGroups"
        public static let listAssets = "io.photod.Library.ListAssets"
        public static let getAssets = "io.photod.Library.GetAssets"
        public static let subscribe = "io.photod.Library.Subscribe"
        public static let rescan = "io.photod.Library.Rescan"
    }

    /// Qualified error names.
    public enum Error {
        public static let authorizationRequired = "io.photod.Library.AuthorizationRequired"
        public static let assetNotFound = "io.photod.Library.AssetNotFound"
        public static let groupNotFound = "io.photod.Library.GroupNotFound"
        public static let invalidCursor = "io.photod.Library.InvalidCursor"
        public static let ownerOnly = "io.photod.Library.OwnerOnly"
        public static let indexUnwritable = "io.photod.Library.IndexUnwritable"
    }
}

/// Parameters of a method that takes none.
public struct NoParameters: Codable, Sendable, Equatable {
    /// The empty parameter object.
    public init() {}
}
