import PhotoAPI
import Store
import Varlink

extension LibraryAPI {
    /// `Search`: the assets whose text holds every word, newest first, a page at a time; a
    /// limited app's only among its selection. A page that stops at the store's row budget
    /// answers what it found, `stopped`, and a cursor after the last photo it examined.
    func search(_ parameters: SearchParameters, _ access: LibraryAccess = .everything) async throws -> SearchReply {
        let limit = parameters.limit ?? Self.defaultLimit
        guard (1...Self.maximumLimit).contains(limit) else { throw VarlinkError.invalidParameter("limit") }
        guard let query = SearchQuery(parameters.text), query.words.count <= SearchQuery.maximumWords else {
            throw VarlinkError.invalidParameter("text")
        }
        let groupKey = try await groupKey(named: parameters.group, fallback: parameters.fallback, access)
        // Newest first by taken time: the order of ListAssets(sort: taken, reverse: true), and its cursors.
        let position = try parameters.cursor.map { cursor throws(VarlinkError) in
            guard let decoded = AssetCursor.decode(cursor, sort: .taken, reverse: true, groupKey: groupKey) else {
                throw VarlinkError(LibraryInterface.Error.invalidCursor, parameters: InvalidCursorError(cursor: cursor))
            }
            return decoded
        }
        let selection: StoreSelection? = if case .selection(let selection) = access { selection } else { nil }
        let found = try await store.searchPage(query, groupKey: groupKey, after: position, limit: limit + 1,
                                               selection: selection)
        let page = Array(found.assets.prefix(limit))
        // More than a page: go on after its last photo. Stopped short: after the last one examined.
        let resume = found.assets.count > limit ? page.last : found.stoppedAfter
        let next = resume.map {
            AssetCursor(sort: .taken, reverse: true, groupKey: groupKey,
                        position: AssetCursor.position(after: $0, sort: .taken)).encoded
        }
        let stopped = found.assets.count <= limit && found.stoppedAfter != nil
        return SearchReply(assets: page.map(mapper.asset), cursor: next, stopped: stopped ? true : nil,
                           progress: progress(for: access))
    }
}
