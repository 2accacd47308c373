import Store
import Testing
@testable import PhotoDaemon

@Suite struct ChangeHubTests {
    @Test func everySubscriberGetsEveryChangeInOrder() async {
        let hub = ChangeHub(queueLimit: 10)
        let (first, firstChanges) = hub.subscribe()
        let (second, secondChanges) = hub.subscribe()
        for token in Int64(1)...3 { hub.publish(CommittedChange(token: token, inserted: ["a\(token)"])) }
        hub.unsubscribe(first)
        hub.unsubscribe(second)
        var tokens: [[Int64]] = []
        for stream in [firstChanges, secondChanges] {
            var seen: [Int64] = []
            for await event in stream { if let change = event.change { seen.append(change.token) } }
            tokens.append(seen)
        }
        #expect(tokens == [[1, 2, 3], [1, 2, 3]])
    }

    @Test func aSubscriberThatFallsBehindIsDroppedAndMarkedWithoutSlowingOthers() async {
        let hub = ChangeHub(queueLimit: 2)
        let (slow, slowChanges) = hub.subscribe()
        let (fast, fastChanges) = hub.subscribe()
        var fastSeen: [Int64] = []
        var iterator = fastChanges.makeAsyncIterator()
        for token in Int64(1)...5 {
            hub.publish(CommittedChange(token: token))
            if let change = await iterator.next()?.change { fastSeen.append(change.token) }
        }
        #expect(fastSeen == [1, 2, 3, 4, 5])
        #expect(hub.didOverflow(slow))
        #expect(!hub.didOverflow(fast))
        var slowSeen: [Int64] = []
        for await event in slowChanges { if let change = event.change { slowSeen.append(change.token) } }
        #expect(slowSeen == [1, 2], "the queue kept what fit, then the stream ended")
        #expect(hub.count == 1)
        #expect(hub.unsubscribe(slow))
    }

    @Test func closingEndsEveryStreamAndRefusesNewOnes() async {
        let hub = ChangeHub(queueLimit: 4)
        let (_, changes) = hub.subscribe()
        hub.close()
        var count = 0
        for await _ in changes { count += 1 }
        #expect(count == 0)
        let (_, late) = hub.subscribe()
        for await _ in late { count += 1 }
        #expect(count == 0)
    }
}

@Suite("ChangeHub visibility events")
struct ChangeHubVisibilityTests {
    @Test("a visibility change reaches only the named app's subscriptions, in order with changes")
    func visibilityGoesToItsApp() async {
        let hub = ChangeHub(queueLimit: 8)
        let (mine, myEvents) = hub.subscribe(app: "exe:/usr/bin/viewer")
        let (other, otherEvents) = hub.subscribe(app: "exe:/usr/bin/other")
        hub.publish(CommittedChange(token: 1))
        hub.publish(visibility: .all, to: "exe:/usr/bin/viewer")
        hub.publish(CommittedChange(token: 2))
        hub.unsubscribe(mine)
        hub.unsubscribe(other)
        var seen: [HubEvent] = []
        for await event in myEvents { seen.append(event) }
        var otherSeen: [HubEvent] = []
        for await event in otherEvents { otherSeen.append(event) }
        #expect(seen == [.change(CommittedChange(token: 1)), .visibility(.all), .change(CommittedChange(token: 2))])
        #expect(otherSeen == [.change(CommittedChange(token: 1)), .change(CommittedChange(token: 2))])
    }
}
