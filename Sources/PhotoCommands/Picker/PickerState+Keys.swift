extension PickerState {
    /// What `key` does: moves, marks, opens, searches, confirms or cancels.
    mutating func handle(_ key: PickerKey) -> [PickerAction] {
        say(nil)
        if key == .interrupt || key == .endOfInput { return [.cancel] }
        if let text = prompt { return handlePrompt(key, text: text) }
        switch key {
        case .escape, .character("q"): return [.cancel]
        case .character("/"):
            setPrompt("")
            return [.render]
        case .character("c"): return confirm()
        case .tab, .character("s"):
            guard mode != .summary else { return back() }
            show(.summary)
            return [.render]
        default: break
        }
        switch mode {
        case .groups: return handleGroups(key)
        case .photos: return handlePhotos(key)
        case .summary: return handleSummary(key)
        }
    }

    /// Ends the pick with the marked photos; refused while none is marked.
    private mutating func confirm() -> [PickerAction] {
        guard !marked.isEmpty else {
            say("Mark a photo first (Space), or press q to cancel.")
            return [.render]
        }
        return [.finish(marked.map(\.id))]
    }

    /// Back from photos to the groups, from the summary to where it was opened.
    private mutating func back() -> [PickerAction] {
        show(mode == .summary && source != nil ? .photos : .groups)
        return ensureLoaded() + [.render]
    }

    /// Keys on the group list.
    private mutating func handleGroups(_ key: PickerKey) -> [PickerAction] {
        if let target = Self.target(of: key, cursor: groupCursor, count: groups.count, pageSize: pageSize) {
            return moveGroups(to: target)
        }
        switch key {
        case .enter, .right, .space:
            guard groups.indices.contains(groupCursor) else { return [.render] }
            let group = groups[groupCursor]
            return open(.group(name: group.name, fallback: group.fallback), total: group.count)
        default:
            return []
        }
    }

    /// Keys on a list of photos.
    private mutating func handlePhotos(_ key: PickerKey) -> [PickerAction] {
        guard let list = currentList else { return [] }
        if let target = Self.target(of: key, cursor: list.cursor, count: list.assets.count, pageSize: pageSize) {
            if key == .end && !list.complete { say("Showing the last photo fetched so far; more are on the way.") }
            return movePhotos(to: target)
        }
        switch key {
        case .space:
            if let asset = currentAsset { toggleMark(asset) }
            return [.render]
        case .enter:
            // Enter with nothing marked takes the photo under the cursor, as a one-photo pick expects.
            if marked.isEmpty, let asset = currentAsset { toggleMark(asset) }
            show(.summary)
            return [.render]
        case .left, .backspace:
            return back()
        default:
            return []
        }
    }

    /// Keys on the summary of marked photos.
    private mutating func handleSummary(_ key: PickerKey) -> [PickerAction] {
        if let target = Self.target(of: key, cursor: summaryCursor, count: marked.count, pageSize: pageSize) {
            return moveSummary(to: target)
        }
        switch key {
        case .enter: return confirm()
        case .space:
            if let asset = currentAsset { toggleMark(asset) }
            return [.render]
        case .left, .backspace: return back()
        default: return []
        }
    }

    /// Keys while the search prompt is open: editing, Enter searches, Esc closes it.
    private mutating func handlePrompt(_ key: PickerKey, text: String) -> [PickerAction] {
        switch key {
        case .character(let character):
            setPrompt(text + String(character))
        case .space:
            setPrompt(text + " ")
        case .backspace:
            setPrompt(text.isEmpty ? nil : String(text.dropLast()))
        case .escape:
            setPrompt(nil)
        case .enter:
            switch SearchQuery.source(from: text) {
            case .success(let found):
                setPrompt(nil)
                return open(found)
            case .failure(let error):
                say(error.message)
            }
        default:
            break
        }
        return [.render]
    }

    /// Where a movement key takes a cursor in a list of `count` rows; nil for other keys.
    static func target(of key: PickerKey, cursor: Int, count: Int, pageSize: Int) -> Int? {
        switch key {
        case .up: cursor - 1
        case .down: cursor + 1
        case .pageUp: cursor - pageSize
        case .pageDown: cursor + pageSize
        case .home: 0
        case .end: count - 1
        default: nil
        }
    }
}
