import PhotoAPI
import Synchronization

@testable import PhotoCommands

/// A library made up in memory: groups of numbered photos, served page by page as photod would.
struct FakeLibrary: PickerDataSource {
    let groupList: [Group]
    let calls = Counter()
    /// How long each call takes, as photod's would over its socket.
    var latency = Duration.zero

    /// Groups with these names and counts (the last name given the fallback group, when asked).
    init(_ groups: [(String, Int)], fallbackLast: Bool = false) {
        groupList = groups.enumerated().map { index, entry in
            Group(name: entry.0, count: entry.1, fallback: fallbackLast && index == groups.count - 1,
                  latest: "2024-06-0\(index % 9 + 1)T10:00:00")
        }
    }

    /// The `index`th photo of `group`.
    static func asset(_ group: String, _ index: Int) -> Asset {
        Asset(id: "\(group)-\(index)", path: "/home/ann/Pictures/\(group)/IMG_\(index).jpg", group: group,
              format: "jpeg", taken: "2024-06-01T10:00:00", size: 2_400_000 + index, modified: "2024-06-01T10:00:00Z")
    }

    /// The groups, as ListGroups gives them.
    func groups() async throws -> [Group] {
        calls.add("groups")
        return groupList
    }

    /// Photos `cursor` (a number) on, `limit` of them; a search finds three.
    func page(of source: PhotoSource, after cursor: String?, limit: Int) async throws -> PickerPage {
        calls.add("page")
        if latency > .zero { try await Task.sleep(for: latency) }
        let start = cursor.flatMap(Int.init) ?? 0
        let (name, count): (String, Int)
        switch source {
        case .group(let group, _): (name, count) = (group, groupList.first { $0.name == group }?.count ?? 0)
        case .search(let text, _): (name, count) = (text, 3)
        }
        let end = min(start + limit, count)
        return ((start..<end).map { Self.asset(name, $0) }, end < count ? String(end) : nil)
    }

    /// A made-up PNG of 12,000 base64 characters, so kitty gets it in three chunks.
    func thumbnail(of id: String, side: Int) async throws -> RequestImageReply {
        calls.add("thumbnail")
        if latency > .zero { try await Task.sleep(for: latency * 4) }
        return RequestImageReply(format: .png, width: side, height: side, source: .cache, orientation: 1,
                                 data: String(repeating: "iVBORw0KGgo=", count: 1000))
    }
}

/// Calls counted across tasks.
final class Counter: Sendable {
    private let names = Mutex<[String]>([])
    /// Counts one call of `name`.
    func add(_ name: String) { names.withLock { $0.append(name) } }
    /// How many calls of `name`.
    func count(_ name: String) -> Int { names.withLock { $0.filter { $0 == name }.count } }
}

/// A terminal in memory: records what the picker writes, answers the kitty query when told
/// to, and types keys as a person would.
final class ScriptedTerminal: PickerTerminal {
    private struct State {
        var written = ""
        var reader: (@Sendable ([UInt8]?) -> Void)?
        var began = false
        var ended = false
    }
    private let state = Mutex(State())
    let columns: Int
    let rows: Int
    /// What the terminal answers to the picture query: nil for nothing at all.
    let reply: String?

    /// A terminal of this size, answering the picture query with `reply`.
    init(columns: Int = 100, rows: Int = 30, reply: String?) {
        self.columns = columns
        self.rows = rows
        self.reply = reply
    }

    /// Kitty's answer, then its DA1 reply.
    static let kittyReply = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c"
    /// A DA1 reply without sixel (4).
    static let plainReply = "\u{1B}[?62;22c"
    /// A DA1 reply with sixel.
    static let sixelReply = "\u{1B}[?62;4;22c"

    /// Everything written since the last `clear`.
    var written: String { state.withLock { $0.written } }
    /// Whether the picker put the terminal back.
    var ended: Bool { state.withLock { $0.ended } }

    /// The fixed size.
    func size() -> (columns: Int, rows: Int) { (columns, rows) }

    /// Keeps `text`; answers the picture query as the terminal would.
    func write(_ text: String) {
        let reader = state.withLock { current -> (@Sendable ([UInt8]?) -> Void)? in
            current.written += text
            return current.reader
        }
        if text.hasPrefix("\u{1B}_Gi=31,"), let reply { reader?(Array(reply.utf8)) }
    }

    /// Notes raw mode.
    func begin() throws { state.withLock { $0.began = true } }
    /// Notes that the terminal was put back.
    func end() { state.withLock { $0.ended = true } }

    /// Keeps the reader, which `type` and the query's answer call.
    func startReading(_ received: @escaping @Sendable ([UInt8]?) -> Void) {
        state.withLock { $0.reader = received }
    }

    /// Types `keys` (bytes as a terminal sends them).
    func type(_ keys: String) {
        state.withLock { $0.reader }?(Array(keys.utf8))
    }

    /// Waits until the output holds `text` (at most five seconds); whether it did.
    func waitFor(_ text: String) async -> Bool {
        for _ in 0..<5000 {
            if written.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    /// Forgets what was written, so the next wait sees only new screens.
    func clear() { state.withLock { $0.written = "" } }
}

/// A waiting pick as photod would list it.
func fakePick(limit: Int = 3, groups: [String] = [], reason: String = "Post to the blog", label: String? = nil,
              appLabel: String? = "Blogger") -> PickRequest {
    PickRequest(id: "pick-1", app: App(id: "app:org.example.Blogger", uid: 1000, label: appLabel, status: .notDetermined),
                reason: reason, label: label, limit: limit, groups: groups,
                requestedAt: "2026-11-29T00:00:00Z", expiresAt: "2026-11-29T00:05:00Z")
}
