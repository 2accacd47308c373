// Times what the daemon does per file to read its metadata: open(O_RDONLY), fstat,
// MetadataReader.read(fileDescriptor:fileSize:), close. Built by bench/metadata_bench.py with
// swiftc against Sources/Metadata/*.swift (see bench/README.md, "Metadata extraction").
//
//   metadata-bench REPEATS < paths        one path a line
//
// One untimed pass over every file, then REPEATS timed passes (every file once a pass, in the
// given order). Writes one JSON line a file to stdout:
//   {"index":I,"median_ns":N,"format":"jpeg","exif":true,"xmp":false,"iptc":false}
// index is the path's line number (0-based); format is what the reader decided (null: not an
// image it knows); exif/xmp/iptc say whether it returned that description candidate.
// A file that cannot be opened gives {"index":I,"error":"..."}.
import Glibc
import Metadata

@main
enum MetadataBench {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 2, let repeats = Int(arguments[1]), repeats > 0 else {
            fputs("usage: metadata-bench REPEATS < paths\n", stderr)
            exit(2)
        }
        var paths: [String] = []
        while let line = readLine(strippingNewline: true) {
            if !line.isEmpty { paths.append(line) }
        }

        // The untimed pass: first touch of code and libexif, and what each file yields.
        var sink = 0
        var results: [Result] = []
        results.reserveCapacity(paths.count)
        for path in paths {
            results.append(readOnce(path, sink: &sink))
        }

        var samples = [[UInt64]](repeating: [], count: paths.count)
        for index in paths.indices { samples[index].reserveCapacity(repeats) }
        for _ in 0..<repeats {
            for (index, path) in paths.enumerated() {
                let start = monotonicNanoseconds()
                _ = readOnce(path, sink: &sink)
                let end = monotonicNanoseconds()
                samples[index].append(end &- start)
            }
        }

        var output = ""
        for index in paths.indices {
            switch results[index] {
            case .failed(let message):
                output += "{\"index\":\(index),\"error\":\"\(message)\"}\n"
            case .read(let format, let exif, let xmp, let iptc):
                let formatText = format.map { "\"\($0.rawValue)\"" } ?? "null"
                output += "{\"index\":\(index),\"median_ns\":\(median(samples[index])),\"format\":\(formatText),"
                    + "\"exif\":\(exif),\"xmp\":\(xmp),\"iptc\":\(iptc)}\n"
            }
        }
        fputs(output, stdout)
        // Keeps the reads observable so none of them can be optimized away.
        fputs("metadata-bench: \(paths.count) files, \(repeats) timed passes, checksum \(sink)\n", stderr)
    }

    enum Result {
        case read(format: ImageFormat?, exif: Bool, xmp: Bool, iptc: Bool)
        case failed(String)
    }

    /// What the daemon does for one file after finding it: open, fstat, read the metadata, close.
    @inline(never)
    static func readOnce(_ path: String, sink: inout Int) -> Result {
        let fileDescriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard fileDescriptor >= 0 else { return .failed("open: errno \(errno)") }
        defer { close(fileDescriptor) }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return .failed("fstat: errno \(errno)") }
        let metadata = MetadataReader.read(fileDescriptor: fileDescriptor, fileSize: Int(status.st_size))
        let descriptions = metadata.descriptions
        sink &+= (metadata.format?.rawValue.utf8.count ?? 0) &+ (descriptions.exif?.count ?? 0)
            &+ (descriptions.xmp?.count ?? 0) &+ (descriptions.iptc?.count ?? 0) &+ (metadata.width ?? 0)
        return .read(format: metadata.format, exif: descriptions.exif != nil,
                     xmp: descriptions.xmp != nil, iptc: descriptions.iptc != nil)
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    static func median(_ values: [UInt64]) -> UInt64 {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
