import WireJSON

/// Who may call a method.
public enum MethodAccess: String, Sendable {
    /// Any app photod can identify; what it is shown still depends on its authorization.
    case anyApp
    /// Only the owner (photod's own user, or a client the config trusts).
    case ownerOnly
    /// The owner, and apps allowed to add photos (add-only, or readWrite authorized or limited).
    case adding
    /// Any app photod can identify, whatever its status (restricted aside, which the method
    /// itself refuses): the call shows it nothing of the library by itself (`Pick`).
    case identified
}

/// What every method declaration says, whatever its types: for the tables that list them.
public protocol MethodDescribing: Sendable {
    /// The interface (`io.photod.Library`).
    var interface: String { get }
    /// The method's name without the interface (`Status`).
    var name: String { get }
    /// Who may call it.
    var access: MethodAccess { get }
    /// The parameter type.
    var parametersType: any Codable.Type { get }
    /// The reply type.
    var replyType: any Codable.Type { get }
}

/// One varlink method, declared once for both sides: its interface and name, its parameter
/// and reply types, and who may call it. The client calls through it and the server registers
/// its handler against it, so a method's name is written in one place.
public struct VarlinkMethod<Parameters: Codable & Sendable & JSONWritable, Reply: Codable & Sendable & JSONReadable>: MethodDescribing {
    public let interface: String
    public let name: String
    public let access: MethodAccess

    /// Declares a method.
    public init(_ interface: String, _ name: String, access: MethodAccess, _: Parameters.Type, _: Reply.Type) {
        self.interface = interface
        self.name = name
        self.access = access
    }

    /// `interface.name`, as it goes on the wire.
    public var qualifiedName: String { interface + "." + name }
    public var parametersType: any Codable.Type { Parameters.self }
    public var replyType: any Codable.Type { Reply.self }
}

/// The methods of `io.photod.Library`.
public enum LibraryMethods {
    /// The daemon's health and counts (as far as the caller may see).
    public static let status = VarlinkMethod(
        LibraryInterface.name, "Status", access: .anyApp, NoParameters.self, StatusReply.self)
    /// Every group the caller may see.
    public static let listGroups = VarlinkMethod(
        LibraryInterface.name, "ListGroups", access: .anyApp, NoParameters.self, ListGroupsReply.self)
    /// One page of assets.
    public static let listAssets = VarlinkMethod(
        LibraryInterface.name, "ListAssets", access: .anyApp, ListAssetsParameters.self, ListAssetsReply.self)
    /// Assets by id.
    public static let getAssets = VarlinkMethod(
        LibraryInterface.name, "GetAssets", access: .anyApp, GetAssetsParameters.self, GetAssetsReply.self)
    /// Committed changes as they happen (a `more` call).
    public static let subscribe = VarlinkMethod(
        LibraryInterface.name, "Subscribe", access: .anyApp, SubscribeParameters.self, SubscribeReply.self)
    /// Assets whose text holds every word of a query, newest first.
    public static let search = VarlinkMethod(
        LibraryInterface.name, "Search", access: .anyApp, SearchParameters.self, SearchReply.self)
    /// Reconciles one root (or all) with the disk now.
    public static let rescan = VarlinkMethod(
        LibraryInterface.name, "Rescan", access: .ownerOnly, RescanParameters.self, RescanReply.self)
    /// Candidates for completing a word: group names, asset ids, app ids or roots.
    public static let complete = VarlinkMethod(
        LibraryInterface.name, "Complete", access: .anyApp, CompleteParameters.self, CompleteReply.self)

    /// A small image of one asset (`more` for opportunistic delivery: interim, then final).
    public static let requestImage = VarlinkMethod(
        LibraryInterface.name, "RequestImage", access: .anyApp, RequestImageParameters.self, RequestImageReply.self)
    /// The original file as a read-only descriptor passed with the reply.
    public static let openOriginal = VarlinkMethod(
        LibraryInterface.name, "OpenOriginal", access: .anyApp, OpenOriginalParameters.self, OpenOriginalReply.self)
    /// Adds a photo, passed as a descriptor (or its bytes), to the library.
    public static let importPhoto = VarlinkMethod(
        LibraryInterface.name, "Import", access: .adding, ImportParameters.self, ImportReply.self)

    /// Writes a description into photos (or their sidecars); an app's call waits for the owner.
    public static let setDescription = VarlinkMethod(
        LibraryInterface.name, "SetDescription", access: .anyApp, SetDescriptionParameters.self,
        SetDescriptionReply.self)

    /// Every method of the interface.
    /// Asks the owner to choose photos for the calling app (streams `pending` first).
    public static let pick = VarlinkMethod(
        LibraryInterface.name, "Pick", access: .identified, PickParameters.self, PickReply.self)

    public static let all: [any MethodDescribing] = [
        status, listGroups, listAssets, getAssets, subscribe, rescan, requestImage, openOriginal, search,
        complete, importPhoto, setDescription, pick,
    ]
}

/// The methods of `io.photod.Authorization`.
public enum AuthorizationMethods {
    /// The caller's own record.
    public static let status = VarlinkMethod(
        AuthorizationInterface.name, "Status", access: .anyApp, AppStatusParameters.self, AppStatusReply.self)
    /// An app asks the owner for access (may stream `pending` first).
    public static let requestAuthorization = VarlinkMethod(
        AuthorizationInterface.name, "RequestAuthorization", access: .anyApp,
        RequestAuthorizationParameters.self, RequestAuthorizationReply.self)
    /// Every app photod knows.
    public static let listApps = VarlinkMethod(
        AuthorizationInterface.name, "ListApps", access: .ownerOnly, NoParameters.self, ListAppsReply.self)
    /// One app's record.
    public static let getApp = VarlinkMethod(
        AuthorizationInterface.name, "GetApp", access: .ownerOnly, GetAppParameters.self, AppReply.self)
    /// The owner's decision for an app.
    public static let decide = VarlinkMethod(
        AuthorizationInterface.name, "Decide", access: .ownerOnly, DecideParameters.self, AppReply.self)
    /// Sends an app back to notDetermined.
    public static let reset = VarlinkMethod(
        AuthorizationInterface.name, "Reset", access: .ownerOnly, ResetParameters.self, AppReply.self)
    /// Forgets an app entirely.
    public static let remove = VarlinkMethod(
        AuthorizationInterface.name, "Remove", access: .ownerOnly, RemoveParameters.self, AppReply.self)
    /// The changes apps asked for that wait for the owner.
    public static let listChanges = VarlinkMethod(
        AuthorizationInterface.name, "ListChanges", access: .ownerOnly, NoParameters.self, ListChangesReply.self)
    /// The owner allows or denies a waiting change.
    public static let answerChange = VarlinkMethod(
        AuthorizationInterface.name, "AnswerChange", access: .ownerOnly, AnswerChangeParameters.self,
        AnswerChangeReply.self)
    /// The apps waiting for the owner to choose photos.
    public static let listPicks = VarlinkMethod(
        AuthorizationInterface.name, "ListPicks", access: .ownerOnly, NoParameters.self, ListPicksReply.self)
    /// The owner answers a waiting pick with the photos chosen, or cancels it.
    public static let answerPick = VarlinkMethod(
        AuthorizationInterface.name, "AnswerPick", access: .ownerOnly, AnswerPickParameters.self, AnswerPickReply.self)
    /// The photos picked for an app.
    public static let getPicked = VarlinkMethod(
        AuthorizationInterface.name, "GetPicked", access: .ownerOnly, AppParameters.self, GetPickedReply.self)
    /// The owner takes picked photos back from an app.
    public static let unpick = VarlinkMethod(
        AuthorizationInterface.name, "Unpick", access: .ownerOnly, UnpickParameters.self, AppReply.self)
    /// Authorization events as they happen (a `more` call).
    public static let watch = VarlinkMethod(
        AuthorizationInterface.name, "Watch", access: .anyApp, NoParameters.self, AuthorizationEventReply.self)

    /// Every method of the interface.
    public static let all: [any MethodDescribing] = [status, requestAuthorization, listApps, getApp, decide, reset, remove,
                                                      listChanges, answerChange, listPicks, answerPick, getPicked,
                                                      unpick, watch]
}
