#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request an app made that waits for the owner: a change (`PendingChange`), a pick (`PendingPick`).
protocol OwnerRequest: Sendable {
    /// photod's name for it, never reused while photod runs.
    var id: String { get }
    /// The app that asked.
    var app: AppKey { get }
    var requestedAt: Date { get }
}

/// The requests of one kind that wait for the owner, each with the stream its app waits on: at
/// most one per app and `maximum` in all, and each app's new ones paced by its `RequestBucket`,
/// since every one puts a notification before the owner.
struct OwnerWaitList<Request: OwnerRequest, Answer: Sendable>: Sendable {
    /// One waiting request and where its answer goes.
    struct Entry: Sendable {
        let request: Request
        let answer: AsyncStream<Answer>.Continuation
    }

    /// A new request refused: as many wait as may.
    struct Busy: Error, Sendable, Equatable {
        let limit: Int
        let hint: String
    }

    /// What one request is called in ids and hints ("change", "pick").
    let noun: String
    /// Most requests waiting at once, all apps together.
    let maximum: Int
    private var waiting: [String: Entry] = [:]
    private var buckets: [AppKey: RequestBucket] = [:]
    private var nextNumber: UInt64 = 1

    /// An empty list of `noun`s, at most `maximum` at once.
    init(noun: String, maximum: Int) {
        self.noun = noun
        self.maximum = maximum
    }

    /// The id for `app`'s new request at `now` (`asking` says what it asks, for the hint), or
    /// `Busy` when it has one waiting, when the most wait, or when it asked too often.
    mutating func admit(_ app: AppKey, asking: String, now: Date) throws(Busy) -> String {
        if waiting.values.contains(where: { $0.request.app == app }) {
            throw Busy(limit: 1, hint: "this app already has a \(noun) waiting for the owner; ask again once it is answered")
        }
        guard waiting.count < maximum else {
            throw Busy(limit: maximum, hint: "\(maximum) \(noun)s already wait for the owner; try again later")
        }
        if let retryAfter = buckets[app, default: RequestBucket()].take(now: now) {
            throw Busy(limit: 1, hint: "this app asked \(asking) too often; try again in \(retryAfter) s")
        }
        defer { nextNumber += 1 }
        return "\(noun)-\(nextNumber)"
    }

    /// Puts `request` in the list; its app's answer comes through the returned stream.
    mutating func insert(_ request: Request) -> AsyncStream<Answer> {
        let (answers, continuation) = AsyncStream.makeStream(of: Answer.self)
        waiting[request.id] = Entry(request: request, answer: continuation)
        return answers
    }

    /// Puts back an entry taken out by `remove` whose answer could not be given.
    mutating func restore(_ entry: Entry) {
        waiting[entry.request.id] = entry
    }

    /// Takes the request `id` out, for its answer; nil when none waits as `id`.
    mutating func remove(_ id: String) -> Entry? {
        waiting.removeValue(forKey: id)
    }

    /// The request waiting as `id`.
    func request(_ id: String) -> Request? {
        waiting[id]?.request
    }

    /// The ids of `app`'s waiting requests.
    func ids(of app: AppKey) -> [String] {
        waiting.values.filter { $0.request.app == app }.map(\.request.id)
    }

    /// Every waiting request, oldest first.
    var oldestFirst: [Request] {
        waiting.values.map(\.request).sorted { ($0.requestedAt, $0.id) < ($1.requestedAt, $1.id) }
    }

    /// Drops a removed app's allowance, so the list holds only apps photod keeps.
    mutating func forget(_ app: AppKey) {
        buckets[app] = nil
    }
}
