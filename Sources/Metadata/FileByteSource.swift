#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file read with bounded pread calls: one head read serves most files, anything beyond gets its own read.
struct FileByteSource: ByteSource {
    /// Enough for the EXIF block and frame header of most JPEGs without a large thumbnail; a
    /// larger APP1 gets one read of its own. Reading more costs a copy of bytes never looked at
    /// (bench/README.md, "Figures behind the code": head read).
    static let headLength = 8 * 1024

    let size: Int
    let budget = ReadBudget()
    private let fileDescriptor: Int32
    private let reusing: HeadBuffer?
    private var head: [UInt8] = []
    /// How many bytes of `head` the file filled (a reused head is longer than a short file).
    private var headCount = 0
    private var headLoaded = false

    /// A source reading `fileDescriptor`; its head goes into `reusing`'s bytes when given.
    init(fileDescriptor: Int32, size: Int, reusing: HeadBuffer? = nil) {
        self.fileDescriptor = fileDescriptor
        self.size = max(0, size)
        self.reusing = reusing
    }

    mutating func read(at offset: Int, count wanted: Int) -> ArraySlice<UInt8> {
        if !headLoaded {
            loadHead()
        }
        if offset + wanted <= headCount {
            return head[offset..<(offset + wanted)]
        }
        return Self.readAll(fileDescriptor, offset: offset, count: wanted)[...]
    }

    /// Gives the head's bytes back to the buffer they came from, for the next file.
    mutating func returnHead() {
        guard let reusing, headLoaded else { return }
        reusing.bytes = head
        head = []
    }

    private mutating func loadHead() {
        headLoaded = true
        let count = min(size, Self.headLength)
        guard let reusing else {
            head = Self.readAll(fileDescriptor, offset: 0, count: count)
            headCount = head.count
            return
        }
        swap(&head, &reusing.bytes)
        if head.count < Self.headLength { head = [UInt8](repeating: 0, count: Self.headLength) }
        // Still shared with a slice of the last file's metadata: writing copies it first.
        headCount = head.withUnsafeMutableBytes { buffer in
            Self.fill(buffer, from: fileDescriptor, count: count)
        }
    }

    /// Reads up to `count` bytes at `offset` into `buffer`, until the end of the file or an
    /// error; how many it read.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from fileDescriptor: Int32,
                             offset: Int = 0, count: Int) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < count {
            let result = pread(fileDescriptor, base + filled, count - filled, off_t(offset + filled))
            if result > 0 {
                filled += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return filled
    }

    /// Reads until `count` bytes, end of file or an error; the array holds what was read.
    private static func readAll(_ fileDescriptor: Int32, offset: Int, count: Int) -> [UInt8] {
        // pread needs a raw buffer; filling it uninitialized avoids zeroing 64 KiB per file.
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = fill(UnsafeMutableRawBufferPointer(buffer), from: fileDescriptor, offset: offset, count: count)
        }
    }
}

/// One reader's buffer for files' first bytes, handed from file to file: reading each head into
/// the same 8 KiB spares an allocation a file, and one of that size also made malloc merge its
/// small free chunks first each time (1.4% of a first index's time). Used by one thread at a time.
public final class HeadBuffer {
    var bytes: [UInt8] = []

    /// An empty buffer; the first file read through it sizes it.
    public init() {}
}
