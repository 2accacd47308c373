import PhotoAPI
import Synchronization

/// What reaches the picker's one loop: keys, the terminal's replies, fetched data, the clock.
enum PickerEvent: Sendable {
    /// Bytes read (empty: the size changed), nil at the terminal's end.
    case input([UInt8]?)
    case detectionTimedOut
    case groups([Group])
    case page(PhotoSource, assets: [Asset], next: String?)
    case failed(String, PhotoSource?)
    case thumbnail(id: String, RequestImageReply?, skipped: Bool)
}

/// A fetch for the data worker (`PickerFetchQueue`).
enum PickerRequest: Sendable {
    case groups
    case page(PhotoSource, cursor: String?, limit: Int)
    case thumbnail(String)
}

/// The photo whose thumbnail is wanted now; the worker skips thumbnails the owner moved past.
final class WantedPicture: Sendable {
    let id = Mutex<String?>(nil)
}

/// The picker's loop state: detection, key decoding, the state machine, drawing and fetching.
struct PickerSession {
    /// How a session ends.
    enum Outcome: Equatable {
        case chosen([String])
        case cancelled
    }

    let terminal: any PickerTerminal
    let requests: PickerFetchQueue
    let wanted: WantedPicture
    var renderer: PickerRenderer
    var state: PickerState
    private var detector = ProtocolDetector()
    private var detected = false
    private var decoder = KeyDecoder()
    private var shelf = PictureShelf()

    /// A session for `pick`, before detection.
    init(pick: PickRequest, terminal: any PickerTerminal, requests: PickerFetchQueue,
         wanted: WantedPicture) {
        self.terminal = terminal
        self.requests = requests
        self.wanted = wanted
        renderer = PickerRenderer(pick: pick, picture: .text)
        state = PickerState(limit: pick.limit, openOn: pick.groups,
                            pageSize: PickerRenderer.pageSize(rows: terminal.size().rows))
    }

    /// Acts on one event; the outcome once the owner confirmed or cancelled.
    mutating func handle(_ event: PickerEvent) -> Outcome? {
        switch event {
        case .input(nil):
            return .cancelled
        case .input(let bytes?) where !detected:
            if let found = detector.feed(bytes) { return begin(with: found) }
            return nil
        case .detectionTimedOut:
            return detected ? nil : begin(with: detector.fallback)
        case .input(let bytes?):
            if bytes.isEmpty { return perform([.render]) }
            var actions: [PickerAction] = []
            for key in decoder.feed(bytes) {
                actions += state.handle(key)
                if actions.contains(where: { if case .finish = $0 { true } else { $0 == .cancel } }) { break }
            }
            return perform(actions)
        case .groups(let groups):
            return perform(state.loaded(groups: groups))
        case .page(let source, let assets, let next):
            return perform(state.loaded(page: assets, next: next, for: source))
        case .failed(let text, let source):
            return perform(state.failed(text, for: source))
        case .thumbnail(let id, let reply, let skipped):
            shelf.arrived(id, reply, skipped: skipped)
            return id == state.currentAsset?.id ? perform([.render]) : nil
        }
    }

    /// Detection is over: the first screen, and the first fetch.
    private mutating func begin(with found: PictureProtocol) -> Outcome? {
        detected = true
        renderer.picture = found
        return perform(state.start())
    }

    /// Performs `actions` in order, drawing once at the end however many asked for it.
    private mutating func perform(_ actions: [PickerAction]) -> Outcome? {
        var render = false
        for action in actions {
            switch action {
            case .render: render = true
            case .loadGroups: requests.add(.groups)
            case .loadPage(let source, let cursor, let limit): requests.add(.page(source, cursor: cursor, limit: limit))
            case .finish(let ids): return close(.chosen(ids))
            case .cancel: return close(.cancelled)
            }
        }
        if render { draw() }
        return nil
    }

    /// Frees the terminal's copies of the thumbnails before the screen goes back.
    private func close(_ outcome: Outcome) -> Outcome {
        if renderer.picture == .kitty { terminal.write(KittyGraphics.deleteAll) }
        return outcome
    }

    /// Draws the screen for the terminal's size now, asking for the thumbnail it lacks.
    mutating func draw() {
        let (columns, rows) = terminal.size()
        let loads = state.resize(pageSize: PickerRenderer.pageSize(rows: rows))
        for case .loadPage(let source, let cursor, let limit) in loads {
            requests.add(.page(source, cursor: cursor, limit: limit))
        }
        let frame = renderer.frame(state, columns: columns, rows: rows)
        var picture = ""
        if let placement = frame.picture {
            wanted.id.withLock { $0 = placement.assetID }
            let (text, request) = shelf.draw(placement, as: renderer.picture)
            picture = text
            if request { requests.add(.thumbnail(placement.assetID)) }
        }
        terminal.write(ScreenText.draw(frame, clearPictures: renderer.picture == .kitty, picture: picture))
    }
}
