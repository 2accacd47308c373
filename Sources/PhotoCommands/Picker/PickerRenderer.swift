import PhotoAPI
import SafeText

/// One screen of the picker: lines that fit the width, and where the thumbnail goes.
struct PickerFrame: Equatable, Sendable {
    /// Escaped text, one line per terminal row, none wider than the screen.
    var lines: [String]
    /// The thumbnail to show, when the terminal shows pictures.
    var picture: PicturePlacement?
}

/// Where a thumbnail is drawn, in terminal cells (1-based, as cursor positioning counts).
struct PicturePlacement: Equatable, Sendable {
    /// The photo whose thumbnail it is.
    var assetID: String
    /// Its top left cell.
    var row: Int, column: Int
    /// The box of cells it is drawn within (`PictureShelf.cells` keeps the photo's proportions).
    var columns: Int, rows: Int
}

/// Draws `PickerState` as a `PickerFrame`: pure, so escaping, fitting and paging are tested
/// without a terminal, and timed with 100,000 photos.
struct PickerRenderer: Sendable {
    /// Lines above the list: who asks, why, and what the list is.
    static let headerLines = 3
    /// Lines below it: the prompt or a message, then the keys.
    static let footerLines = 2

    /// The pick being answered.
    var pick: PickRequest
    var picture: PictureProtocol

    /// List rows that fit a screen of `rows` lines.
    static func pageSize(rows: Int) -> Int { max(rows - headerLines - footerLines, 1) }

    /// The screen for `state` on a terminal of `columns` × `rows`.
    func frame(_ state: PickerState, columns: Int, rows: Int) -> PickerFrame {
        let columns = max(columns, 10)
        var placement: PicturePlacement?
        var listWidth = columns
        if picture.showsPictures, columns >= 60, let asset = state.currentAsset {
            let pictureColumns = min(32, columns / 3)
            listWidth = columns - pictureColumns - 1
            placement = PicturePlacement(assetID: asset.id, row: Self.headerLines + 1, column: listWidth + 2,
                                         columns: pictureColumns, rows: min(state.pageSize, pictureColumns / 2))
        }
        var lines = header(state).map { PickerRows.fit($0, width: columns) }
        var list = body(state, width: listWidth)
        list += Array(repeating: "", count: max(state.pageSize - list.count, 0))
        lines += list.prefix(state.pageSize)
        lines.append(PickerRows.fit(footer(state), width: columns))
        lines.append(PickerRows.fit(keys(state), width: columns))
        return PickerFrame(lines: lines, picture: placement)
    }

    /// Who asks for what, and where the owner is.
    private func header(_ state: PickerState) -> [String] {
        let up = pick.limit == 1 ? "a photo" : "up to \(pick.limit) photos"
        let label = pick.label.map { " (" + SafeText.quoted($0) + ")" } ?? ""
        let marked = "\(state.marked.count) of \(state.limit) marked"
        return [
            AppText.name(pick.app) + " wants you to choose " + up + label,
            "Reason: " + SafeText.escaped(pick.reason),
            SafeText.escaped(title(state)) + " — " + marked,
        ]
    }

    /// What the list is, and which part of it shows.
    private func title(_ state: PickerState) -> String {
        switch state.mode {
        case .groups:
            return state.groupsLoaded ? "Groups (\(state.groups.count))" : "Groups (loading…)"
        case .summary:
            return "Marked photos, in the order chosen"
        case .photos:
            guard let source = state.source, let list = state.currentList else { return "" }
            let start = list.cursor / state.pageSize * state.pageSize
            let end = min(start + state.pageSize, list.assets.count)
            let of = list.total.map { " of \($0)" } ?? (list.complete ? "" : " of many")
            let range = list.assets.isEmpty ? (list.complete ? "none" : "loading…") : "\(start + 1)–\(end)\(of)"
            return "\(source.title): \(range)"
        }
    }

    /// The rows of the page the cursor is on.
    private func body(_ state: PickerState, width: Int) -> [String] {
        let size = state.pageSize
        switch state.mode {
        case .groups:
            let start = state.groupCursor / size * size
            let page = state.groups.indices.dropFirst(start).prefix(size)
            return page.map { PickerRows.group(state.groups[$0], current: $0 == state.groupCursor, width: width) }
        case .photos:
            guard let list = state.currentList else { return [] }
            if list.assets.isEmpty && list.complete { return ["  No photos."] }
            let start = list.cursor / size * size
            let page = list.assets[min(start, list.assets.count)..<min(start + size, list.assets.count)]
            return PickerRows.photos(page, leading: { asset, _ in state.isMarked(asset.id) ? "[x]" : "[ ]" },
                                     cursor: list.cursor, width: width)
        case .summary:
            if state.marked.isEmpty { return ["  Nothing marked yet."] }
            let start = state.summaryCursor / size * size
            let page = state.marked[start..<min(start + size, state.marked.count)]
            let digits = String(state.marked.count).count
            return PickerRows.photos(page, leading: { _, index in
                let number = String(index + 1)
                return String(repeating: " ", count: digits - number.count) + number + "."
            }, cursor: state.summaryCursor, width: width)
        }
    }

    /// The search prompt while it is open, else the message.
    private func footer(_ state: PickerState) -> String {
        if let prompt = state.prompt { return "Find: " + SafeText.escaped(prompt) + "▏" }
        return state.message.map { SafeText.escaped($0) } ?? ""
    }

    /// The keys that work here.
    private func keys(_ state: PickerState) -> String {
        if state.prompt != nil { return "Words to find (as photoctl find takes them)  Enter find  Esc close" }
        switch state.mode {
        case .groups: return "↑↓ move  Enter open  / find  s marked  c confirm  q cancel"
        case .photos: return "↑↓ PgUp PgDn move  Space mark  ← groups  / find  Enter marked  c confirm  q cancel"
        case .summary: return "↑↓ move  Space unmark  Enter confirm  ← back  q cancel"
        }
    }
}
