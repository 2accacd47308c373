import Glibc
import Posix
import Testing

/// `CodePages.release()` unmaps only pages the process never wrote: its code and read-only data
/// map back on use, and what the loader relocated (the GOT, RELRO) keeps its values.
@Suite struct CodePagesTests {
    /// Bytes of the mappings nobody may write: files mapped without `w`, and the vDSO.
    private func readOnlyMappedBytes() throws -> Int {
        let file = try #require(fopen("/proc/self/maps", "r"))
        defer { fclose(file) }
        var total = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].dropFirst().first != "w",
                  fields[5].hasPrefix("/") || fields[5].hasPrefix("[vdso]") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { Int($0, radix: 16) }
            if bounds.count == 2 { total += bounds[1] - bounds[0] }
        }
        return total
    }

    @Test func releasesReadOnlySegmentsAlone() throws {
        let released = CodePages.release()
        #expect(released > 0)
        #expect(released <= (try readOnlyMappedBytes()))
    }

    /// Calls into libc go through the relocated GOT and Swift's runtime through relocated
    /// metadata: had a written page been dropped, its file contents would be back and these crash or differ.
    @Test func codeAndRelocatedDataWorkAfterwards() {
        let pid = getpid()
        let text = "\([3, 1, 2].sorted()) \(Double(2.5)) \(String(describing: CodePagesTests.self))"
        CodePages.release()
        #expect(getpid() == pid)
        #expect("\([3, 1, 2].sorted()) \(Double(2.5)) \(String(describing: CodePagesTests.self))" == text)
    }
}
