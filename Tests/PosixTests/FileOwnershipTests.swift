import Glibc
import Posix
import Testing

/// A file's mode, owner and extended attributes, carried over to the file that replaces it.
struct FileOwnershipTests {
    /// A new empty file under /tmp, open read-write, and its path.
    static func file() throws -> (descriptor: Int32, path: String) {
        var template = Array("/tmp/ownership-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        try #require(descriptor >= 0)
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func theBitsOfTheCallersClassDecide() {
        let file = FileOwnership(mode: 0o640, user: 1000, group: 100)
        #expect(file.allowsWriting(by: .init(user: 1000, groups: [1000])), "the owner's bits")
        #expect(!file.allowsWriting(by: .init(user: 1001, groups: [100])), "the group's bits: read only")
        #expect(!file.allowsWriting(by: .init(user: 1001, groups: [1001])), "the others' bits: none")
        #expect(FileOwnership(mode: 0o664, user: 1000, group: 100).allowsWriting(by: .init(user: 1001, groups: [5, 100])))
        #expect(FileOwnership(mode: 0o646, user: 1000, group: 100).allowsWriting(by: .init(user: 1001, groups: [1001])))
        // The owner's own bits count even when the group's or others' would allow it, as the kernel's do.
        #expect(!FileOwnership(mode: 0o466, user: 1000, group: 100).allowsWriting(by: .init(user: 1000, groups: [100])))
        // Root may write anything, but a file without any write bit was made read-only on purpose.
        #expect(file.allowsWriting(by: .init(user: 0, groups: [0])))
        #expect(!FileOwnership(mode: 0o444, user: 1000, group: 100).allowsWriting(by: .init(user: 0, groups: [0])))
    }

    @Test func modeAndAttributesAreCarriedToAnotherFile() throws {
        let (source, sourcePath) = try Self.file()
        let (target, targetPath) = try Self.file()
        defer {
            close(source)
            close(target)
            unlink(sourcePath)
            unlink(targetPath)
        }
        #expect(fchmod(source, 0o640) == 0)
        try ExtendedAttributes.set(Array("user.photod.a".utf8), to: Array("one".utf8), on: source)
        try ExtendedAttributes.set(Array("user.photod.b".utf8), to: [], on: source)
        // Already equal on the target: left alone, not an error.
        try ExtendedAttributes.set(Array("user.photod.a".utf8), to: Array("one".utf8), on: target)

        let ownership = try #require(FileOwnership(descriptor: source))
        try ownership.apply(to: target)
        #expect(ExtendedAttributes.copy(from: source, to: target) == nil)

        #expect(FileOwnership(descriptor: target) == ownership)
        #expect(ownership.mode == 0o640)
        #expect(try ExtendedAttributes.names(of: target).sorted { $0.lexicographicallyPrecedes($1) }
            == [Array("user.photod.a".utf8), Array("user.photod.b".utf8)])
        #expect(try ExtendedAttributes.value(Array("user.photod.a".utf8), of: target) == Array("one".utf8))
        #expect(try ExtendedAttributes.value(Array("user.photod.b".utf8), of: target) == [])
        #expect(try ExtendedAttributes.value(Array("user.photod.none".utf8), of: target) == nil)
    }
}
