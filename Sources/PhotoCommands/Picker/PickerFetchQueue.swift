import Synchronization

/// The data worker's queue: lists (groups, pages) before thumbnails, so a thumbnail never
/// holds up the page the owner turns to next; the worker takes one fetch at a time.
final class PickerFetchQueue: Sendable {
    private struct Waiting {
        var lists: [PickerRequest] = []
        var thumbnails: [PickerRequest] = []
        var worker: CheckedContinuation<PickerRequest?, Never>?
        var closed = false
    }

    private let state = Mutex(Waiting())

    /// Queues `request`, or hands it straight to the worker when it waits.
    func add(_ request: PickerRequest) {
        let worker = state.withLock { waiting -> CheckedContinuation<PickerRequest?, Never>? in
            guard !waiting.closed else { return nil }
            if let worker = waiting.worker {
                waiting.worker = nil
                return worker
            }
            if case .thumbnail = request { waiting.thumbnails.append(request) } else { waiting.lists.append(request) }
            return nil
        }
        // Resumed outside the lock: the worker runs on as soon as it is resumed.
        worker?.resume(returning: request)
    }

    /// The next fetch, waiting for one; nil once closed.
    func next() async -> PickerRequest? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { waiting -> PickerRequest?? in
                if waiting.closed { return .some(nil) }
                if !waiting.lists.isEmpty { return waiting.lists.removeFirst() }
                if !waiting.thumbnails.isEmpty { return waiting.thumbnails.removeFirst() }
                waiting.worker = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the queue: the worker's wait returns nil, and nothing more is queued.
    func close() {
        let worker = state.withLock { waiting -> CheckedContinuation<PickerRequest?, Never>? in
            waiting.closed = true
            defer { waiting.worker = nil }
            return waiting.worker
        }
        worker?.resume(returning: nil)
    }
}
