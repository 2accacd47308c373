import Testing
@testable import PhotoDaemon

/// The folder suggested for a root that does not exist: the nearest sibling by name, or none.
struct MissingRootHintTests {
    private let siblings = ["/home/u/Pictures", "/home/u/Documents", "/home/u/Music", "/home/u/pics-old"]

    @Test func aTypoFindsTheSiblingMeant() {
        #expect(MissingRootHint.closest(to: "/home/u/Pictres", among: siblings) == "/home/u/Pictures")
        #expect(MissingRootHint.closest(to: "/home/u/pictures", among: siblings) == "/home/u/Pictures")
        #expect(MissingRootHint.closest(to: "/home/u/Musik", among: siblings) == "/home/u/Music")
    }

    @Test func nothingCloseSuggestsNothing() {
        #expect(MissingRootHint.closest(to: "/home/u/Videos", among: siblings) == nil)
        #expect(MissingRootHint.closest(to: "/home/u/Pictures", among: []) == nil)
        #expect(MissingRootHint.closest(to: "/", among: siblings) == nil)
    }
}
