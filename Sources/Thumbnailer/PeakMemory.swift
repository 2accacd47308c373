import Glibc
import Synchronization

/// The worker's peak resident set, reported in every response so photod can watch for leaks and bombs.
public enum PeakMemory {
    /// /proc/self/status, opened before the sandbox (which lets no path be opened after) and
    /// read again from offset 0 each time: procfs makes the text afresh on every read.
    private static let status = Atomic<Int32>(-1)

    /// Opens /proc/self/status for `kib()`; call before the sandbox closes the file system.
    public static func prepare() {
        let file = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        if file >= 0, !status.compareExchange(expected: -1, desired: file, ordering: .relaxed).exchanged { close(file) }
    }

    /// VmHWM from /proc/self/status in KiB; getrusage's ru_maxrss as a fallback.
    ///
    /// VmHWM first: after a vfork-style spawn, ru_maxrss starts from the parent's peak, not this process's.
    public static func kib() -> UInt64 {
        if let value = statusField("VmHWM:") { return value }
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return UInt64(max(usage.ru_maxrss, 0))
    }

    private static func statusField(_ name: String) -> UInt64? {
        let file = status.load(ordering: .relaxed)
        guard file >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(file, $0.baseAddress?.advanced(by: total), $0.count - total, off_t(total))
            }
            if count <= 0 { break }
            total += count
        }
        return field(name, in: String(decoding: bytes[..<total], as: UTF8.self))
    }

    /// The number of a `Name:\t   1234 kB` line of /proc/self/status text; nil when it has none.
    static func field(_ name: String, in text: String) -> UInt64? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        // The kernel pads the number with a tab and spaces.
        return line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { UInt64($0) }
    }
}
