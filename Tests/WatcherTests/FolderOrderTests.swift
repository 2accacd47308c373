@testable import FileSystem
import Testing

/// A folder's entries sort in path order however their names begin: the 16-byte keys that
/// spare most comparisons the names must order exactly as the names themselves.
struct FolderOrderTests {
    /// A small deterministic generator, so a failure repeats.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What a child's paths sort by: its name, then "/" for a folder's contents.
    private static func pathKey(_ child: FolderListing.Child) -> [UInt8] {
        child.name + (child.info == nil ? [UInt8(ascii: "/"), 0] : [])
    }

    @Test func keysOrderAsNamesDoForNamesOfEveryLength() {
        var random = SplitMix(state: 31)
        let alphabet = Array("IMG_0.-/a~".utf8).filter { $0 != UInt8(ascii: "/") } + [0xC3, 0xFF]
        let stems = ["IMG_000053", "IMG_0000530000001", "b", "b0", "b.jpg", "abcdefghijklmnop", "abcdefghijklmno"]
        for _ in 0..<200 {
            var names = Set<[UInt8]>()
            while names.count < 40 {
                var name = Array(stems.randomElement(using: &random)!.utf8)
                for _ in 0..<Int.random(in: 0...6, using: &random) { name.append(alphabet.randomElement(using: &random)!) }
                names.insert(name)
            }
            let children = names.map { name in
                FolderListing.Child(name: name, info: Bool.random(using: &random) ? nil : .unstated)
            }
            let sorted = FolderListing.Child.inPathOrder(children).map(\.name)
            let expected = children.sorted { Self.pathKey($0).lexicographicallyPrecedes(Self.pathKey($1)) }.map(\.name)
            #expect(sorted == expected)
        }
    }
}
