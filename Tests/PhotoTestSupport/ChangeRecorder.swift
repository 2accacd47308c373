import Foundation
import PhotoAPI
import PhotoClient

/// Subscribes to a daemon and records every change it streams, for tests.
public final class ChangeRecorder: @unchecked Sendable {
    private let changes = Mutexed<[Change]>([])
    private var task: Task<Void, Never>?
    /// The first reply's token (where the stream started).
    public private(set) var startToken = 0

    private init() {}

    /// Subscribes to the daemon at `socket` and waits for the first reply.
    public static func start(socket: String, since: Int? = nil) async throws -> ChangeRecorder {
        try await start(client: PhotoClient.connect(socketPath: socket), since: since)
    }

    /// Subscribes through `client` (closed when recording stops) and waits for the first reply.
    public static func start(client: PhotoClient, since: Int? = nil) async throws -> ChangeRecorder {
        let recorder = ChangeRecorder()
        let first = Mutexed<Int?>(nil)
        recorder.task = Task {
            do {
                for try await change in client.subscribe(since: since) {
                    if first.get() == nil {
                        first.set(change.token)
                    } else {
                        recorder.changes.update { $0.append(change) }
                    }
                }
            } catch {}
            await client.close()
        }
        await eventually(within: 10, every: .milliseconds(5)) { first.get() != nil }
        recorder.startToken = first.get() ?? -1
        return recorder
    }

    /// Every change received after the first reply.
    public var received: [Change] { changes.get() }

    /// Ids in `inserted` across all changes, and likewise for the other lists.
    public var inserted: [String] { received.flatMap(\.inserted) }
    public var removed: [String] { received.flatMap(\.removed) }
    public var updated: [String] { received.flatMap(\.updated) }
    public var moved: [Move] { received.flatMap(\.moved) }

    /// Waits until `condition` holds for the received changes; false on timeout.
    @discardableResult
    public func wait(timeout: TimeInterval = 10, until condition: (ChangeRecorder) -> Bool) async throws -> Bool {
        await eventually(within: timeout, every: .milliseconds(10)) { condition(self) }
    }

    /// Stops recording.
    public func stop() { task?.cancel() }

    deinit { task?.cancel() }
}
