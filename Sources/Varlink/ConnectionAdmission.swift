import Synchronization

/// Decides which connections the server serves, so no client can take every slot.
///
/// Four rules: at most `maxConnections` at once; of those, `ownerReserved` only the owner may
/// take, so the owner is never locked out; a uid other than the owner's connections holds at
/// most `maxPerUID`, so one user (or one app, in a per-user service) cannot fill the rest; and
/// the last `newcomerHeadroom` of the other slots go one each to uids holding none, so a few
/// users holding their whole share (each with its `Watch` streams) cannot lock out the next
/// user. The owner is held only to the total. Connections still being identified are counted apart and
/// capped, because each holds a file descriptor before anyone knows who it is.
final class ConnectionAdmission: Sendable {
    /// The numbers the rules use.
    struct Limits: Sendable, Equatable {
        var maxConnections: Int
        var maxPerUID: Int
        var ownerReserved: Int
        var maxUnidentified: Int
    }

    /// Why a connection was not served; the text goes into the log line.
    enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Too many connections are waiting to be identified.
        case identificationBacklog(limit: Int)
        /// Every slot is taken (an owner gets this only when all slots are taken).
        case full(limit: Int)
        /// The slots left are reserved for the owner.
        case reservedForOwner(reserved: Int)
        /// This uid already holds its share.
        case perUID(uid: UInt32?, limit: Int)
        /// This uid already holds `held` connections, and the few slots left are kept for uids holding none.
        case fairShare(uid: UInt32?, held: Int)

        var description: String {
            switch self {
            case .identificationBacklog(let limit): "\(limit) connections are already waiting to be identified"
            case .full(let limit): "all \(limit) connection slots are taken"
            case .reservedForOwner(let reserved): "the free slots are the \(reserved) reserved for the owner"
            case .perUID(let uid, let limit):
                "uid \(uid.map(String.init) ?? "unknown") already holds its \(limit) connections"
            case .fairShare(let uid, let held):
                "uid \(uid.map(String.init) ?? "unknown") already holds \(held) connections; the last free slots are "
                    + "kept for users holding none"
            }
        }
    }

    /// A served connection's place, handed back to `release`.
    struct Slot: Sendable, Equatable {
        let id: UInt64
        let uid: UInt32?
        let owner: Bool
    }

    private struct State {
        var unidentified = 0
        var owner = 0
        var others = 0
        var perUID: [UInt32?: Int] = [:]
        var lastID: UInt64 = 0
    }

    let limits: Limits
    private let state = Mutex(State())

    /// Rules with `limits`; a reserve that would leave no slot for anyone but the owner is cut to
    /// leave one (the daemon's config loader refuses such a value before it gets here).
    init(_ limits: Limits) {
        var limits = limits
        limits.ownerReserved = min(limits.ownerReserved, max(limits.maxConnections - 1, 0))
        self.limits = limits
    }

    /// The slots anyone but the owner may take.
    var sharedSlots: Int { limits.maxConnections - limits.ownerReserved }

    /// Of `sharedSlots`, how many stay free for uids that hold none: an eighth, so that a pool of
    /// 60 (the default 64 less the owner's 4) still lets 7 more users in when 4 hold 16 each.
    var newcomerHeadroom: Int { sharedSlots / 8 }

    /// Connections served now.
    var served: Int {
        self.state.withLock { $0.owner + $0.others }
    }

    /// Counts a just-accepted connection as waiting to be identified, unless too many already are.
    func beginIdentification() -> Refusal? {
        self.state.withLock { state in
            guard state.unidentified < self.limits.maxUnidentified else {
                return .identificationBacklog(limit: self.limits.maxUnidentified)
            }
            state.unidentified += 1
            return nil
        }
    }

    /// For a peer that cannot be the owner: the refusal it will get anyway, which also ends its
    /// identification; nil when it should go on to be identified. Saves identifying (reading
    /// /proc) each connection of a flood from a user who is already at its share.
    func refuseNonOwner(uid: UInt32?) -> Refusal? {
        self.state.withLock { state in
            guard let refusal = self.appRefusal(uid: uid, state) else { return nil }
            state.unidentified -= 1
            return refusal
        }
    }

    /// Ends a connection's identification and gives it a slot, or says why not.
    func admit(uid: UInt32?, owner: Bool) -> Result<Slot, Refusal> {
        self.state.withLock { state in
            state.unidentified -= 1
            let total = state.owner + state.others
            guard total < self.limits.maxConnections else { return .failure(.full(limit: self.limits.maxConnections)) }
            if owner {
                state.owner += 1
            } else {
                if let refusal = self.appRefusal(uid: uid, state) { return .failure(refusal) }
                state.perUID[uid, default: 0] += 1
                state.others += 1
            }
            state.lastID += 1
            return .success(Slot(id: state.lastID, uid: uid, owner: owner))
        }
    }

    /// Why a connection that is not the owner's would be refused now, if it would.
    private func appRefusal(uid: UInt32?, _ state: State) -> Refusal? {
        guard state.owner + state.others < self.limits.maxConnections else {
            return .full(limit: self.limits.maxConnections)
        }
        guard state.others < self.sharedSlots else {
            return .reservedForOwner(reserved: self.limits.ownerReserved)
        }
        let held = state.perUID[uid, default: 0]
        guard held < self.limits.maxPerUID else {
            return .perUID(uid: uid, limit: self.limits.maxPerUID)
        }
        guard held == 0 || self.sharedSlots - state.others > self.newcomerHeadroom else {
            return .fairShare(uid: uid, held: held)
        }
        return nil
    }

    /// Frees a slot `admit` gave.
    func release(_ slot: Slot) {
        self.state.withLock { state in
            if slot.owner {
                state.owner -= 1
                return
            }
            state.others -= 1
            let held = state.perUID[slot.uid, default: 1] - 1
            state.perUID[slot.uid] = held > 0 ? held : nil
        }
    }
}
