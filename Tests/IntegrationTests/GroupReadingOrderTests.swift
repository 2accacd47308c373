import Foundation
import PhotoTestSupport
import Testing

/// `photoctl groups` lists groups as people read them (issue 30), through the real photod and
/// photoctl: accents beside their letters, case ignored, digits first, the fallback group last.
@Suite(.serialized) struct GroupReadingOrderTests {
    @Test func groupsAreInReadingOrderWithTheFallbackGroupLast() async throws {
        let daemon = try DaemonHarness()
        for (file, description) in [("zoo.jpg", "Zoo"), ("ete.jpg", "Été"), ("school.jpg", "École"),
                                    ("school2.jpg", "ecole"), ("apple.jpg", "apple"), ("trip.jpg", "2021 Trip"),
                                    ("beach.jpg", "Beach"), ("none.jpg", nil)] {
            try daemon.add(file, Photo.jpeg(description))
        }
        try await daemon.start()

        let groups = try await daemon.photoctlJSON(["groups"])["groups"] as? [[String: Any]] ?? []
        #expect(groups.map { $0["name"] as? String ?? "?" }
            == ["2021 Trip", "apple", "Beach", "ecole", "École", "Été", "Zoo", "Other"])
        let table = try await daemon.photoctl(["groups"])
        let firstColumn = table.stdout.split(separator: "\n").dropFirst().map { $0.prefix(while: { $0 != " " }) }
        #expect(firstColumn.prefix(3) == ["2021", "apple", "Beach"], "\(table.stdout)")
    }
}
