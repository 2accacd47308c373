import PhotoAPI

/// What the picker's state machine asks its runner to do; the machine itself does no I/O.
enum PickerAction: Equatable, Sendable {
    /// Draw the screen again.
    case render
    /// Fetch the groups (`ListGroups`), then call `PickerState.loaded(groups:)`.
    case loadGroups
    /// Fetch one page of `source` after `cursor` (nil: the first), then call `loaded(page:…)`.
    case loadPage(PhotoSource, cursor: String?, limit: Int)
    /// The owner confirmed: these ids, in the order marked.
    case finish([String])
    /// The owner cancelled.
    case cancel
}

/// The photos of one source as far as they were fetched: the cache of what was shown, kept
/// when the owner goes back to the groups so that reopening a group costs no call.
struct PhotoList: Equatable, Sendable {
    /// Every photo fetched so far, in the daemon's order.
    var assets: [Asset] = []
    /// The cursor of the next page; nil once `complete`.
    var next: String?
    /// Whether the last page has arrived.
    var complete = false
    /// Whether a page is being fetched (one at a time, so pages arrive in order).
    var loading = false
    /// The highlighted photo.
    var cursor = 0
    /// Where the owner moved beyond what was fetched (PgDn before the page ahead arrived): the
    /// cursor goes there when the page does, so a key pressed early is not lost.
    var pendingCursor: Int?
    /// How many photos there are, when known (a group's count; a search's once complete).
    var total: Int?
}
