import Store

/// Turns committed changes into what a limited app may see of them, as a value type without I/O.
///
/// It remembers which assets the app can see (and in which group), because a removed asset
/// can no longer be looked up: whether its removal is visible depends on where it was. Group
/// names in the output are recomputed from the visible assets alone, so a change to a hidden
/// asset never shows up as a group count changing.
struct VisibleChangeFilter: Sendable {
    private var selection: SelectionMatcher
    /// The visible assets, by id.
    private var known: [String: AssetMembership] = [:]
    /// Visible assets per group key.
    private var counts: [String: Int] = [:]

    /// A filter for `selection`, starting from the assets it holds now.
    init(selection: StoreSelection, visible: [AssetMembership]) {
        self.selection = selection.matcher
        for membership in visible { add(membership) }
    }

    /// The number of assets the app sees now.
    var visibleCount: Int { known.count }

    /// What the app sees of `change`; nil when it sees nothing of it. `current` holds the
    /// present group of the inserted and updated assets that still exist.
    mutating func filter(_ change: CommittedChange, current: [String: AssetMembership]) -> CommittedChange? {
        var out = CommittedChange(token: change.token)
        var touched: [String: String] = [:]
        for id in change.inserted {
            guard let now = current[id], isSelected(now) else { continue }
            out.inserted.append(id)
            touch(add(now), into: &touched)
        }
        for id in change.removed {
            guard let old = remove(id) else { continue }
            out.removed.append(id)
            touch(old, into: &touched)
        }
        for id in change.updated {
            let old = known[id]
            let now = current[id].flatMap { isSelected($0) ? $0 : nil }
            switch (old, now) {
            case (nil, nil):
                continue
            case (nil, let now?):
                out.inserted.append(id)
                touch(add(now), into: &touched)
            case (let old?, nil):
                _ = remove(id)
                out.removed.append(id)
                touch(old, into: &touched)
            case (let old?, let now?):
                out.updated.append(id)
                if old.groupKey != now.groupKey {
                    _ = remove(id)
                    touch(old, into: &touched)
                    touch(add(now), into: &touched)
                }
            }
        }
        out.moved = change.moved.filter { known[$0.id] != nil }
        return finish(out, touched: touched)
    }

    /// The app's selection changed: what appeared and disappeared for it, at `token`.
    mutating func reselect(_ selection: StoreSelection, visible: [AssetMembership], token: Int64) -> CommittedChange? {
        self.selection = selection.matcher
        var out = CommittedChange(token: token)
        var touched: [String: String] = [:]
        let now = Dictionary(visible.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in known.keys.sorted() where now[id] == nil {
            if let old = remove(id) { touch(old, into: &touched) }
            out.removed.append(id)
        }
        for membership in visible.sorted(by: { $0.id < $1.id }) where known[membership.id] == nil {
            touch(add(membership), into: &touched)
            out.inserted.append(membership.id)
        }
        return finish(out, touched: touched)
    }

    private func isSelected(_ membership: AssetMembership) -> Bool {
        selection.contains(id: membership.id, groupKey: membership.groupKey)
    }

    /// Records a visible asset; a second insert of a known asset is not counted twice.
    @discardableResult
    private mutating func add(_ membership: AssetMembership) -> AssetMembership {
        if known.updateValue(membership, forKey: membership.id) == nil {
            counts[membership.groupKey, default: 0] += 1
        }
        return membership
    }

    private mutating func remove(_ id: String) -> AssetMembership? {
        guard let old = known.removeValue(forKey: id) else { return nil }
        counts[old.groupKey, default: 1] -= 1
        if counts[old.groupKey] == 0 { counts[old.groupKey] = nil }
        return old
    }

    private func touch(_ membership: AssetMembership, into touched: inout [String: String]) {
        touched[membership.groupKey] = membership.groupName
    }

    /// Fills in the group lists from the groups whose visible count changed: the fallback group
    /// first and flagged, as the store lists it, then by name.
    private func finish(_ change: CommittedChange, touched: [String: String]) -> CommittedChange? {
        var out = change
        let fallback = StoredGroup.fallbackKey
        let ordered = touched.sorted { ($0.key == fallback ? 0 : 1, $0.value) < ($1.key == fallback ? 0 : 1, $1.value) }
        for (key, name) in ordered {
            if counts[key] == nil {
                out.groupsRemoved.append(name)
                if key == fallback { out.fallbackRemoved = true }
            } else {
                out.groupsChanged.append(name)
                if key == fallback { out.fallbackChanged = true }
            }
        }
        return out.isEmpty ? nil : out
    }
}
