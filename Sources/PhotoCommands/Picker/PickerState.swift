import PhotoAPI

/// The picker as a value: keys and fetched data in, actions out (`handle`), no I/O, so every
/// path through it is a unit test. The runner (`InteractivePicker`) performs the actions.
struct PickerState: Sendable {
    /// Which list the picker shows.
    enum Mode: Equatable, Sendable {
        case groups, photos, summary
    }

    /// The most photos the owner may mark (the pick's limit).
    let limit: Int
    /// The groups the pick asked to open on, by name or label.
    let openOn: [String]
    private(set) var mode = Mode.groups
    private(set) var groups: [Group] = []
    private(set) var groupsLoaded = false
    private(set) var groupCursor = 0
    /// The source the photos list shows (the last one opened).
    private(set) var source: PhotoSource?
    /// Every source fetched so far.
    private(set) var lists: [PhotoSource: PhotoList] = [:]
    /// The marked photos, in the order marked.
    private(set) var marked: [Asset] = []
    private(set) var summaryCursor = 0
    /// The search prompt's text while it is open.
    private(set) var prompt: String?
    /// A line for the owner (a refusal, a failure), raw; cleared by the next key.
    private(set) var message: String?
    /// Rows of the list that fit on the screen.
    private(set) var pageSize: Int

    /// A picker for `limit` photos, `pageSize` rows to a page.
    init(limit: Int, openOn: [String] = [], pageSize: Int) {
        self.limit = max(limit, 1)
        self.openOn = openOn
        self.pageSize = max(pageSize, 1)
    }

    /// The first actions: fetch the groups, and draw meanwhile.
    func start() -> [PickerAction] { [.loadGroups, .render] }

    /// The list `mode` shows, when it shows photos.
    var currentList: PhotoList? { source.flatMap { lists[$0] } }

    /// The photo under the cursor in the photos list.
    var currentAsset: Asset? {
        switch mode {
        case .photos:
            guard let list = currentList, list.assets.indices.contains(list.cursor) else { return nil }
            return list.assets[list.cursor]
        case .summary:
            return marked.indices.contains(summaryCursor) ? marked[summaryCursor] : nil
        case .groups:
            return nil
        }
    }

    /// Whether the photo with this id is marked.
    func isMarked(_ id: String) -> Bool { marked.contains { $0.id == id } }

    /// The screen now has room for `rows` list rows.
    mutating func resize(pageSize rows: Int) -> [PickerAction] {
        let rows = max(rows, 1)
        guard rows != pageSize else { return [] }
        pageSize = rows
        return ensureLoaded() + [.render]
    }

    /// The groups arrived: those the pick names come first, and one named alone is opened.
    mutating func loaded(groups fetched: [Group]) -> [PickerAction] {
        let named = fetched.filter { group in openOn.contains { $0 == group.name || $0 == GroupLabel.text(group) } }
        groups = named + fetched.filter { group in !named.contains(group) }
        groupsLoaded = true
        if named.count == 1, let only = named.first, mode == .groups, source == nil {
            return open(.group(name: only.name, fallback: only.fallback), total: only.count)
        }
        return [.render]
    }

    /// A page of `source` arrived; fetches on while the page after the shown one is not whole.
    mutating func loaded(page assets: [Asset], next: String?, for source: PhotoSource) -> [PickerAction] {
        guard lists[source] != nil else { return [] }
        // In place: a copy of the list would copy every photo fetched so far, at every page.
        lists[source, default: PhotoList()].assets += assets
        lists[source, default: PhotoList()].next = next
        let complete = next == nil || assets.isEmpty
        lists[source, default: PhotoList()].complete = complete
        lists[source, default: PhotoList()].loading = false
        let count = lists[source]?.assets.count ?? 0
        if complete { lists[source, default: PhotoList()].total = count }
        if let pending = lists[source]?.pendingCursor {
            lists[source, default: PhotoList()].cursor = max(0, min(pending, count - 1))
            if pending < count || complete { lists[source, default: PhotoList()].pendingCursor = nil }
        }
        return ensureLoaded() + [.render]
    }

    /// A fetch failed: says so; for a page, the list stops where it is and the next move retries.
    mutating func failed(_ text: String, for failedSource: PhotoSource? = nil) -> [PickerAction] {
        if let failedSource { lists[failedSource]?.loading = false }
        if failedSource == nil { groupsLoaded = true }
        message = text
        return [.render]
    }

    /// Shows the photos of `newSource`, fetching its first pages unless they were shown before.
    mutating func open(_ newSource: PhotoSource, total: Int? = nil) -> [PickerAction] {
        source = newSource
        mode = .photos
        if lists[newSource] == nil { lists[newSource] = PhotoList(total: total) }
        return ensureLoaded() + [.render]
    }

    /// Asks for the next page while fewer photos are fetched than the shown page and the one
    /// after it hold: the next page is on hand before the owner turns to it.
    mutating func ensureLoaded() -> [PickerAction] {
        guard mode == .photos, let source, var list = lists[source], !list.complete, !list.loading else { return [] }
        let pageStart = list.cursor / pageSize * pageSize
        guard list.assets.count < pageStart + 2 * pageSize else { return [] }
        list.loading = true
        lists[source] = list
        return [.loadPage(source, cursor: list.next, limit: pageSize)]
    }

    /// Marks the photo, or unmarks it when marked; refuses beyond the limit with a message.
    mutating func toggleMark(_ asset: Asset) {
        if let index = marked.firstIndex(where: { $0.id == asset.id }) {
            marked.remove(at: index)
            summaryCursor = min(summaryCursor, max(marked.count - 1, 0))
        } else if marked.count >= limit {
            message = limit == 1
                ? "Only one photo may be chosen: unmark it first (Space)."
                : "At most \(limit) photos may be chosen: unmark one first (Space)."
        } else {
            marked.append(asset)
        }
    }

    /// Moves the photos cursor to `index` (within what is fetched), fetching on as needed.
    mutating func movePhotos(to index: Int) -> [PickerAction] {
        guard let source, var list = lists[source] else { return [.render] }
        let last = list.assets.count - 1
        list.pendingCursor = index > last && !list.complete ? index : nil
        list.cursor = max(0, min(index, last))
        lists[source] = list
        return ensureLoaded() + [.render]
    }

    /// Moves the groups cursor to `index`.
    mutating func moveGroups(to index: Int) -> [PickerAction] {
        groupCursor = max(0, min(index, groups.count - 1))
        return [.render]
    }

    /// Moves the summary cursor to `index`.
    mutating func moveSummary(to index: Int) -> [PickerAction] {
        summaryCursor = max(0, min(index, marked.count - 1))
        return [.render]
    }

    /// Sets the message line (the key handlers' refusals).
    mutating func say(_ text: String?) { message = text }

    /// Opens or closes the search prompt, or sets its text.
    mutating func setPrompt(_ text: String?) { prompt = text }

    /// Switches to another list.
    mutating func show(_ newMode: Mode) { mode = newMode }
}
