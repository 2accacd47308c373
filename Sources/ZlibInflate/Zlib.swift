import CZlib

/// The only code that talks to zlib's inflate: one stream at a time, with a cap on the output
/// (a PNG's text chunk for the metadata reader, a thumbnail's pixels for photoctl's picker).
public enum Zlib {
    /// Inflates a zlib stream; nil when it is corrupt, or would exceed `limit` bytes.
    public static func inflate(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard !input.isEmpty, input.count <= Int(UInt32.max) else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let status: Int32? = input.withUnsafeBufferPointer { source -> Int32? in
            guard let base = source.baseAddress else { return nil }
            // zlib's API takes a mutable pointer but never writes through next_in.
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = UInt32(source.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (result, buffer.count - Int(stream.avail_out))
                }
                output += chunk[..<produced]
                if output.count > limit { return nil }
                if result == Z_STREAM_END { return result }
                // No progress possible: truncated input or corrupt data.
                if result != Z_OK || (produced == 0 && stream.avail_in == 0) { return result == Z_OK ? Z_BUF_ERROR : result }
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return output
    }
}
