/// Who an image is made for, so the workers serve callers fairly: the owner first, then the
/// apps in turn, whatever number of requests each one sends.
enum ImageCaller: Hashable, Sendable {
    /// photoctl or a trusted program: served before any app.
    case owner
    /// An app, by its id: apps take turns.
    case app(String)
}

/// The requests waiting for an image worker, one queue per caller: the owner's are served first,
/// the apps' round-robin (one request of each app with any waiting, in turn), and a caller
/// with `perCaller` requests waiting is refused more until some are served.
struct ImageQueue<Waiter> {
    /// Requests one caller may have waiting.
    let perCaller: Int
    private var owner: [Waiter] = []
    private var apps: [String: [Waiter]] = [:]
    /// Apps with requests waiting, the next to be served first.
    private var turns: [String] = []

    /// An empty queue that holds at most `perCaller` waiting requests of each caller.
    init(perCaller: Int) {
        self.perCaller = max(1, perCaller)
    }

    /// Whether nothing waits.
    var isEmpty: Bool { owner.isEmpty && turns.isEmpty }

    /// Requests waiting, all callers together.
    var count: Int { owner.count + apps.values.reduce(0) { $0 + $1.count } }

    /// Requests of `caller` waiting.
    func waiting(_ caller: ImageCaller) -> Int {
        switch caller {
        case .owner: owner.count
        case .app(let id): apps[id]?.count ?? 0
        }
    }

    /// Queues `waiter` for `caller`; false (and nothing queued) when `caller` has its fill waiting.
    mutating func enqueue(_ waiter: Waiter, for caller: ImageCaller) -> Bool {
        guard waiting(caller) < perCaller else { return false }
        switch caller {
        case .owner:
            owner.append(waiter)
        case .app(let id):
            if apps[id, default: []].isEmpty { turns.append(id) }
            apps[id, default: []].append(waiter)
        }
        return true
    }

    /// The next request to serve: the owner's oldest, else (when `apps` allows one) the oldest
    /// of the app whose turn it is.
    mutating func next(apps allowed: Bool = true) -> Waiter? {
        if !owner.isEmpty { return owner.removeFirst() }
        guard allowed, !turns.isEmpty else { return nil }
        let id = turns.removeFirst()
        guard var queue = apps[id], !queue.isEmpty else { return next(apps: allowed) }
        let waiter = queue.removeFirst()
        if queue.isEmpty {
            apps[id] = nil
        } else {
            apps[id] = queue
            // Back of the line: every other app with a request waiting goes first.
            turns.append(id)
        }
        return waiter
    }

    /// Everything waiting, emptied (to let every waiter go at shutdown).
    mutating func drain() -> [Waiter] {
        var all = owner
        for id in turns { all += apps[id] ?? [] }
        owner = []
        apps = [:]
        turns = []
        return all
    }
}
