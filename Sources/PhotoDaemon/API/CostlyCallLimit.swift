#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import Store
import Synchronization
import Varlink

/// Admits costly calls (Search) per caller: at most `perApp` at once for one app and `perUser`
/// for all of one uid's apps, so that one app, or one user's many app ids, cannot queue enough
/// of them to fill the shared readers for everyone else; and at most `burst` in a row for one
/// app, then one every `interval`, so that an app asking again the moment it is answered does
/// not keep photod's processors busy. The owner is never counted: its calls run on the store's
/// reserved lane anyway.
final class CostlyCallLimit: Sendable {
    /// Most costly calls one app may have running.
    let perApp: Int
    /// Most costly calls one uid's apps may have running together.
    let perUser: Int
    /// Calls one app may make in a row, and how soon it earns one more.
    let burst: Int
    let interval: TimeInterval
    /// What the calls are, in the refusals' words ("searches").
    let calls: String
    private let running = Mutex<(apps: [String: Int], users: [UInt32: Int])>(([:], [:]))
    private let buckets = Mutex<[String: RequestBucket]>([:])
    /// Apps whose pace is remembered; past it the memory starts again (each app a full burst).
    private static let rememberedApps = 4096

    /// A limit of `perApp` calls per app and `perUser` per uid. Two per app and four per user
    /// suit the store's two shared readers: a caller over that would only wait behind itself.
    /// 20 in a row, then one every 50 ms, is faster than anyone types a search.
    init(perApp: Int, perUser: Int, burst: Int = 20, interval: TimeInterval = 0.05, calls: String = "searches") {
        self.calls = calls
        self.perApp = perApp
        self.perUser = perUser
        self.burst = burst
        self.interval = interval
    }

    /// Takes one of `key`'s calls at `now`; false when it has made all it may for now.
    private func paced(_ key: String, now: Date) -> Bool {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= Self.rememberedApps { buckets.removeAll() }
            return buckets[key, default: RequestBucket(capacity: burst, interval: interval)].take(now: now) == nil
        }
    }

    /// Runs `body` once `caller` is admitted, or throws `Busy` (after `RefusalPace`) when it is at its limit.
    func admit<T: Sendable>(_ caller: Caller, _ body: () async throws -> T) async throws -> T {
        guard case .app(let identity) = caller else { return try await body() }
        let key = "\(identity.uid)\u{0}\(identity.id)"
        guard paced(key, now: Date()) else {
            await RefusalPace.wait()
            throw VarlinkError(LibraryInterface.Error.busy, parameters: BusyError(
                limit: perApp, hint: "this app made \(burst) \(calls) in a row; it may make one more every "
                    + "\(Int(interval * 1000)) ms"))
        }
        let admitted = running.withLock { running in
            guard running.apps[key, default: 0] < perApp, running.users[identity.uid, default: 0] < perUser else {
                return false
            }
            running.apps[key, default: 0] += 1
            running.users[identity.uid, default: 0] += 1
            return true
        }
        guard admitted else {
            await RefusalPace.wait()
            throw VarlinkError(LibraryInterface.Error.busy, parameters: BusyError(
                limit: perApp, hint: "this app already has \(perApp) \(calls) running (its user's apps at most "
                    + "\(perUser) in all); retry once one has answered"))
        }
        defer {
            running.withLock { running in
                running.apps[key] = running.apps[key].flatMap { $0 > 1 ? $0 - 1 : nil }
                running.users[identity.uid] = running.users[identity.uid].flatMap { $0 > 1 ? $0 - 1 : nil }
            }
        }
        return try await body()
    }

    /// The costly calls running now, for tests and logs.
    var runningCount: Int {
        running.withLock { $0.apps.values.reduce(0, +) }
    }
}

extension Caller {
    /// The store lane this caller's reads run on: the owner's on the reserved one, which no
    /// app's work can occupy; everyone else's on the shared readers.
    var storeLane: StoreLane {
        isOwner ? .reserved : .shared
    }
}
