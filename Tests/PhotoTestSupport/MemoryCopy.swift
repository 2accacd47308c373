import Glibc
import Posix

/// Sealed in-memory copies for tests, made as photod makes them.
public enum MemoryCopy {
    /// A sealed memfd of `count` zero bytes, copied from a file that is gone from its folder at
    /// once; nil when the system refuses.
    public static func make(_ count: Int, name: String = "test-copy") -> Int32? {
        var template = Array("/tmp/\(name)-XXXXXX".utf8CString)
        let source = mkstemp(&template)
        guard source >= 0 else { return nil }
        defer { close(source) }
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        guard ftruncate(source, off_t(count)) == 0 else { return nil }
        return try? SealedCopy.make(copying: source, count: count, name: name).get().descriptor
    }
}
