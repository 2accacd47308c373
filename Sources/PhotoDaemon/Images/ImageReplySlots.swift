/// How many RequestImage calls of one caller may be under way at once, from the worker's queue
/// to the last byte of the reply: an image reply is up to tens of MiB, so this, not the number of
/// connections, bounds what one app's unread replies can hold in photod's memory.
actor ImageReplySlots {
    /// Calls of one app under way at once; the owner gets `ownerInFlight`.
    let appInFlight: Int
    let ownerInFlight: Int
    /// Calls of one caller that may wait for a slot; more are refused as busy.
    let waitingPerCaller: Int
    private var inFlight: [ImageCaller: Int] = [:]
    private var waiting: [ImageCaller: [CheckedContinuation<Void, Never>]] = [:]

    /// Slots as described, each at least 1.
    init(appInFlight: Int = 2, ownerInFlight: Int = 4, waitingPerCaller: Int = ThumbnailerPool.waitingPerCaller) {
        self.appInFlight = max(1, appInFlight)
        self.ownerInFlight = max(1, ownerInFlight)
        self.waitingPerCaller = max(1, waitingPerCaller)
    }

    /// Takes a slot for `caller`, waiting behind its earlier calls when it has all it may;
    /// `busy` when as many of its calls already wait.
    func take(_ caller: ImageCaller) async throws(ImageMakingError) {
        let limit = caller == .owner ? ownerInFlight : appInFlight
        if inFlight[caller, default: 0] < limit, waiting[caller, default: []].isEmpty {
            inFlight[caller, default: 0] += 1
            return
        }
        let queued = waiting[caller, default: []].count
        guard queued < waitingPerCaller else { throw .busy(waiting: queued) }
        // `give` hands its slot straight to the oldest waiter.
        await withCheckedContinuation { waiting[caller, default: []].append($0) }
    }

    /// Gives back `caller`'s slot: to its oldest waiting call, if any.
    func give(_ caller: ImageCaller) {
        if var queue = waiting[caller], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[caller] = queue.isEmpty ? nil : queue
            next.resume()
            return
        }
        inFlight[caller, default: 1] -= 1
        if inFlight[caller] == 0 { inFlight[caller] = nil }
    }

    /// Calls of `caller` under way and waiting.
    func counts(_ caller: ImageCaller) -> (inFlight: Int, waiting: Int) {
        (inFlight[caller, default: 0], waiting[caller, default: []].count)
    }
}
