/// Names of the `io.photod.Library` interface, its methods and its errors.
public enum LibraryInterface {
    /// The interface name.
    public static let name = "io.photod.Library"


    /// Qualified error names.
    public enum Error {
        public static let authorizationRequired = "io.photod.Library.AuthorizationRequired"
        public static let assetNotFound = "io.photod.Library.AssetNotFound"
        public static let groupNotFound = "io.photod.Library.GroupNotFound"
        public static let invalidCursor = "io.photod.Library.InvalidCursor"
        public static let ownerOnly = "io.photod.Library.OwnerOnly"
        public static let indexUnwritable = "io.photod.Library.IndexUnwritable"
        public static let imageTooLarge = "io.photod.Library.ImageTooLarge"
        public static let imageUnavailable = "io.photod.Library.ImageUnavailable"
        public static let imageBusy = "io.photod.Library.ImageBusy"
        public static let fileDescriptorsRequired = "io.photod.Library.FileDescriptorsRequired"
        public static let rootNotFound = "io.photod.Library.RootNotFound"
        public static let busy = "io.photod.Library.Busy"
    }
}

/// Parameters of a method that takes none.
public struct NoParameters: Codable, Sendable, Equatable {
    /// The empty parameter object.
    public init() {}
}
