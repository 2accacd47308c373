import PhotoAPI
import PhotoClient

/// One page of photos, and the cursor of the page after it (nil: it was the last).
typealias PickerPage = (assets: [Asset], next: String?)

/// Where the picker's photos come from: photod through `PhotoClient` in photoctl, a fake in tests.
protocol PickerDataSource: Sendable {
    /// Every group.
    func groups() async throws -> [Group]
    /// One page of `source` after `cursor` (nil: the first), and the cursor of the next (nil: the last).
    func page(of source: PhotoSource, after cursor: String?, limit: Int) async throws -> PickerPage
    /// A small PNG of the photo, quickly (`RequestImage` with `fast`).
    func thumbnail(of id: String, side: Int) async throws -> RequestImageReply
}

/// The picker's data through photod's ListGroups, ListAssets, Search and RequestImage.
struct ClientPickerSource: PickerDataSource {
    let client: PhotoClient

    /// ListGroups.
    func groups() async throws -> [Group] { try await client.groups() }

    /// A ListAssets page for a group; a Search page, with `find`'s reading of a group label, for a search.
    func page(of source: PhotoSource, after cursor: String?, limit: Int) async throws -> PickerPage {
        switch source {
        case .group(let name, let fallback):
            let reply = try await client.listAssets(ListAssetsParameters(
                group: name, limit: limit, cursor: cursor, fallback: fallback))
            return (reply.assets, reply.cursor)
        case .search(let text, let group):
            let reply = try await GroupLabel.resolving(group) { name, fallback in
                try await client.search(SearchParameters(text: text, group: name, limit: limit, cursor: cursor,
                                                         fallback: fallback))
            }
            return (reply.assets, reply.cursor)
        }
    }

    /// RequestImage(fast) as PNG, which the kitty protocol shows without decoding. A fast image
    /// taken from the file as it is keeps its own format (an embedded JPEG preview), so then the
    /// PNG is asked for again at high quality: from the thumbnail cache, or decoded once.
    func thumbnail(of id: String, side: Int) async throws -> RequestImageReply {
        let fast = try await client.requestImage(RequestImageParameters(
            id: id, width: side, height: side, deliveryMode: .fast, format: .png))
        guard fast.format != .png else { return fast }
        return try await client.requestImage(RequestImageParameters(
            id: id, width: side, height: side, deliveryMode: .highQuality, format: .png))
    }
}
