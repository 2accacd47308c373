import Glibc
import PhotoTestSupport
import Posix
import Testing

/// The watch that tells photod a sealed copy it handed out is gone: not while any descriptor,
/// reopened descriptor or mapping still holds it, and once the last one goes.
struct LastReferenceWatchTests {
    /// The watches `watch` reports gone now.
    static func gone(_ watch: LastReferenceWatch) -> [Int32] {
        var all: [Int32] = []
        watch.released { all += $0 }
        return all
    }

    /// A sealed memfd of `count` bytes, as photod makes a copy.
    static func memfd(_ count: Int) throws -> Int32 {
        try #require(MemoryCopy.make(count, name: "last-reference-test"))
    }

    @Test func aFileIsReportedGoneOnlyWhenTheLastHolderLetsGo() throws {
        let watch = try LastReferenceWatch()
        let first = try Self.memfd(4096)
        let number = try watch.watch(first) { $0 }.get()
        let duplicate = dup(first)
        let reopened = open("/proc/self/fd/\(first)", O_RDONLY | O_CLOEXEC)
        try #require(duplicate >= 0 && reopened >= 0)
        let mapping = mmap(nil, 4096, PROT_READ, MAP_SHARED, first, 0)
        try #require(mapping != MAP_FAILED)

        close(first)
        #expect(Self.gone(watch).isEmpty, "a duplicate, a reopened descriptor and a mapping still hold it")
        close(duplicate)
        #expect(Self.gone(watch).isEmpty, "a reopened descriptor and a mapping still hold it")
        close(reopened)
        #expect(Self.gone(watch).isEmpty, "a mapping still holds it")
        munmap(mapping, 4096)
        #expect(Self.gone(watch) == [number])
        #expect(Self.gone(watch).isEmpty, "each file is reported once")
    }

    @Test func eachFileIsToldApartAndABadDescriptorIsRefused() throws {
        let watch = try LastReferenceWatch()
        let one = try Self.memfd(10)
        let two = try Self.memfd(10)
        let first = try watch.watch(one) { $0 }.get()
        let second = try watch.watch(two) { $0 }.get()
        #expect(first != second)
        close(two)
        #expect(Self.gone(watch) == [second])
        close(one)
        #expect(Self.gone(watch) == [first])
        #expect(throws: SystemCallError.self) { try watch.watch(-1) { $0 }.get() }
    }
}
