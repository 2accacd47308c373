import PhotoAPI

/// Assets gathered page by page (`PhotoClient.listAll`, `searchAll`), and the progress of a
/// reconcile photod was running meanwhile: nil when none ran, else the answer may be partial.
public struct AssetPages: Sendable, Equatable {
    public var assets: [Asset] = []
    public var progress: ScanProgress?

    /// No assets, no progress.
    public init() {}
}

/// Parameters of a call answered a page at a time (`ListAssets`, `Search`): how many to return
/// and where to go on from, which `PhotoClient` sets page after page.
protocol CursorPaging: Sendable {
    var limit: Int? { get set }
    var cursor: String? { get set }
}

extension ListAssetsParameters: CursorPaging {}
extension SearchParameters: CursorPaging {}
