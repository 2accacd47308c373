import Testing
@testable import PhotoDaemon

/// The image workers' queue: the owner's requests first, the apps' in turn, a bound per caller.
struct ImageQueueTests {
    @Test func theOwnerIsServedFirstAndAppsTakeTurns() {
        var queue = ImageQueue<String>(perCaller: 16)
        var queued: [Bool] = []
        for index in 1...4 { queued.append(queue.enqueue("flood\(index)", for: .app("flood"))) }
        queued.append(queue.enqueue("other1", for: .app("other")))
        queued.append(queue.enqueue("owner1", for: .owner))
        queued.append(queue.enqueue("other2", for: .app("other")))
        #expect(queued.allSatisfy { $0 })
        var order: [String] = []
        while let next = queue.next() { order.append(next) }
        #expect(order == ["owner1", "flood1", "other1", "flood2", "other2", "flood3", "flood4"])
        #expect(queue.isEmpty && queue.count == 0)
    }

    @Test func aCallerPastItsBoundIsRefusedAndOthersAreNot() {
        var queue = ImageQueue<Int>(perCaller: 3)
        var queued: [Bool] = []
        for index in 0..<3 { queued.append(queue.enqueue(index, for: .app("flood"))) }
        let fourth = queue.enqueue(3, for: .app("flood"))
        #expect(queued == [true, true, true] && !fourth)
        #expect(queue.waiting(.app("flood")) == 3)
        let other = queue.enqueue(10, for: .app("other"))
        let owner = queue.enqueue(20, for: .owner)
        #expect(other && owner)
        let first = queue.next()
        let second = queue.next()
        #expect(first == 20 && second == 0)
        let again = queue.enqueue(3, for: .app("flood"))
        #expect(again, "room again once one was served")
        let drained = queue.drain()
        #expect(drained.sorted() == [1, 2, 3, 10])
        #expect(queue.isEmpty)
    }
}

/// RequestImage calls under way per caller, replies included.
struct ImageReplySlotsTests {
    @Test func anAppPastItsSlotsWaitsAndPastItsQueueIsBusy() async throws {
        let slots = ImageReplySlots(appInFlight: 2, ownerInFlight: 4, waitingPerCaller: 2)
        try await slots.take(.app("flood"))
        try await slots.take(.app("flood"))
        let waiters = (0..<2).map { _ in Task { try await slots.take(.app("flood")) } }
        while await slots.counts(.app("flood")).waiting < 2 { await Task.yield() }
        await #expect(throws: ImageMakingError.busy(waiting: 2)) { try await slots.take(.app("flood")) }
        // Another app and the owner are not held up by the flood.
        try await slots.take(.app("other"))
        for _ in 0..<4 { try await slots.take(.owner) }
        await slots.give(.app("flood"))
        try await waiters[0].value
        let counts = await slots.counts(.app("flood"))
        #expect(counts.inFlight == 2 && counts.waiting == 1)
        await slots.give(.app("flood"))
        try await waiters[1].value
        await slots.give(.app("flood"))
        await slots.give(.app("flood"))
        let after = await slots.counts(.app("flood"))
        #expect(after.inFlight == 0 && after.waiting == 0)
    }
}
