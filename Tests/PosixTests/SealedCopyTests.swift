import Glibc
import Posix
import Testing

/// The sealed copy and the pipe feed photod hands apps instead of an original's descriptor.
struct SealedCopyTests {
    /// A temporary file holding `bytes`, open read-only, and its path.
    static func file(_ bytes: [UInt8]) throws -> (descriptor: Int32, path: String) {
        var template = Array("/tmp/sealed-copy-XXXXXX".utf8CString)
        let writable = mkstemp(&template)
        try #require(writable >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = bytes.withUnsafeBytes { write(writable, $0.baseAddress, $0.count) }
        close(writable)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        return (descriptor, path)
    }

    static func readAll(_ descriptor: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got <= 0 { return all }
            all += buffer[..<got]
        }
    }

    @Test func aSealedCopyHasTheBytesAndCannotBeWrittenEvenReopened() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let source = try Self.file(bytes)
        defer { close(source.descriptor); unlink(source.path) }
        let copy = try SealedCopy.make(copying: source.descriptor, count: bytes.count, name: "test").get()
        defer { close(copy.descriptor) }
        #expect(copy.size == bytes.count)
        #expect(SealedCopy.seals(of: copy.descriptor) == SealedCopy.seals)
        #expect(lseek(source.descriptor, 0, SEEK_CUR) == 0, "the source's offset is not moved")
        #expect(Self.readAll(copy.descriptor) == bytes)

        let reopened = open("/proc/self/fd/\(copy.descriptor)", O_RDWR)
        try #require(reopened >= 0, "a memfd may be reopened; its seals still hold")
        defer { close(reopened) }
        #expect(pwrite(reopened, [1, 2, 3], 3, 0) == -1 && errno == EPERM)
        #expect(ftruncate(reopened, 10) == -1 && errno == EPERM)
        #expect(ftruncate(reopened, off_t(bytes.count + 10)) == -1 && errno == EPERM)
        #expect(fcntl(reopened, 1033, Int32(0)) == -1, "no seal can be added or removed (F_SEAL_SEAL)")
        var status = stat()
        #expect(fstat(copy.descriptor, &status) == 0 && status.st_size == off_t(bytes.count))
    }

    @Test func aFeedFillsAPipeAndStopsWhenTheReaderLeaves() async throws {
        let bytes = (0..<500_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let source = try Self.file(bytes)
        defer { close(source.descriptor); unlink(source.path) }

        let whole = try PipeFeed.pipe().get()
        let feed = PipeFeed()
        // The feed closes its end when done, as photod does, so the reader sees the end.
        let outcome = Task { await DetachedThread.result(name: "test-feed") {
            defer { close(whole.write) }
            return feed.run(from: source.descriptor, count: bytes.count, to: whole.write, idleTimeout: .seconds(10))
        } }
        let read = await DetachedThread.result(name: "test-read") { Self.readAllThenClose(whole.read) }
        #expect(await outcome.value == .done(bytes.count))
        #expect(read == bytes)

        // A reader that takes a little and hangs up ends the feed, without SIGPIPE killing us.
        let left = try PipeFeed.pipe().get()
        let leaving = Task { await DetachedThread.result(name: "test-feed") {
            PipeFeed().run(from: source.descriptor, count: bytes.count, to: left.write, idleTimeout: .seconds(10))
        } }
        var first = [UInt8](repeating: 0, count: 1000)
        _ = first.withUnsafeMutableBytes { Glibc.read(left.read, $0.baseAddress, $0.count) }
        close(left.read)
        #expect(await leaving.value == .readerGone)
        close(left.write)

        // A reader that takes nothing ends it after the idle timeout; stop() ends it at once.
        let idle = try PipeFeed.pipe().get()
        #expect(await DetachedThread.result(name: "test-feed") {
            PipeFeed().run(from: source.descriptor, count: bytes.count, to: idle.write, idleTimeout: .milliseconds(300))
        } == .idle)
        let stopped = PipeFeed()
        stopped.stop()
        #expect(await DetachedThread.result(name: "test-feed") {
            stopped.run(from: source.descriptor, count: bytes.count, to: idle.write, idleTimeout: .seconds(10))
        } == .stopped)
        close(idle.read)
        close(idle.write)
    }

    static func readAllThenClose(_ descriptor: Int32) -> [UInt8] {
        defer { close(descriptor) }
        return readAll(descriptor)
    }
}
