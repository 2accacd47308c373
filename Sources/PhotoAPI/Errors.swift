/// Parameters of `io.photod.Library.AuthorizationRequired`.
public struct AuthorizationRequiredError: Codable, Sendable, Equatable {
    public var status: String
    public var app: String
    public var hint: String

    /// Creates the error parameters.
    public init(status: String, app: String, hint: String) {
        self.status = status
        self.app = app
        self.hint = hint
    }
}

/// Parameters of `io.photod.Library.AssetNotFound`.
public struct AssetNotFoundError: Codable, Sendable, Equatable {
    public var id: String

    /// Creates the error parameters.
    public init(id: String) { self.id = id }
}

/// Parameters of `io.photod.Library.GroupNotFound`.
public struct GroupNotFoundError: Codable, Sendable, Equatable {
    public var name: String
    /// Up to five names of groups the caller can see that are near `name`, nearest first.
    public var closest: [String]?

    /// Creates the error parameters.
    public init(name: String, closest: [String]? = nil) {
        self.name = name
        self.closest = closest
    }
}

/// Parameters of `io.photod.Library.InvalidCursor`.
public struct InvalidCursorError: Codable, Sendable, Equatable {
    public var cursor: String

    /// Creates the error parameters.
    public init(cursor: String) { self.cursor = cursor }
}

/// Parameters of `io.photod.Library.OwnerOnly`.
public struct OwnerOnlyError: Codable, Sendable, Equatable {
    public var hint: String

    /// Creates the error parameters.
    public init(hint: String) { self.hint = hint }
}

/// Parameters of `io.photod.Library.IndexUnwritable`.
public struct IndexUnwritableError: Codable, Sendable, Equatable {
    /// Why, in words: what failed and what photod does about it.
    public var reason: String

    /// Creates the error parameters.
    public init(reason: String) { self.reason = reason }
}

/// Parameters of `org.varlink.service.InvalidParameter`.
public struct InvalidParameterError: Codable, Sendable, Equatable {
    public var parameter: String

    /// Creates the error parameters.
    public init(parameter: String) { self.parameter = parameter }
}

/// Parameters of `io.photod.Library.Busy`.
public struct BusyError: Codable, Sendable, Equatable {
    /// How many such calls one caller may have running at once.
    public var limit: Int
    /// What to do about it, in words.
    public var hint: String

    /// Creates the error parameters.
    public init(limit: Int, hint: String) {
        self.limit = limit
        self.hint = hint
    }
}
