import Glibc

/// The worker's peak resident set, reported in every response so photod can watch for leaks and bombs.
public enum PeakMemory {
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
        let file = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress?.advanced(by: total), $0.count - total) }
            if count <= 0 { break }
            total += count
        }
        let text = String(decoding: bytes[..<total], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.dropFirst(name.count).split(separator: " ").first.flatMap { UInt64($0) }
    }
}
