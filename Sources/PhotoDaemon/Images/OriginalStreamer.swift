#if canImport(Glibc)
import Glibc
#endif
import PhotoAPI
import Posix
import Varlink

/// `OpenOriginal` with `stream: true`: the original's bytes in the replies themselves, for a
/// client that cannot receive descriptors (one behind `photoctl bridge` over SSH).
///
/// One chunk is read at a time, and the next only once the connection took the previous reply
/// (`VarlinkReplier.reply` waits while its output is over its bound): a slow client slows the
/// reading down, and neither the file nor its base64 is ever held whole.
struct OriginalStreamer: Sendable {
    /// The most file bytes one reply carries, as the interface declares (262144).
    static let chunkBytes = 256 << 10

    /// Sends `source`'s first `size` bytes as replies at increasing offsets; the last one ends
    /// the call. A file that shrank meanwhile ends early (the client sees fewer than `size`).
    static func send(_ source: Int32, size: Int, reply: OpenOriginalReply, id: String,
                     replier: VarlinkReplier) async throws {
        var offset = 0
        repeat {
            let wanted = min(chunkBytes, size - offset)
            let at = offset
            let chunk = await DetachedThread.result(name: "photod-chunk") { read(source, count: wanted, at: at) }
            let bytes: [UInt8]
            switch chunk {
            case .success(let read): bytes = read
            case .failure(let error):
                throw VarlinkError(LibraryInterface.Error.imageUnavailable,
                                   parameters: ImageUnavailableError(id: id, reason: "reading the file failed (\(error))"))
            }
            var part = reply
            part.offset = offset
            part.data = ""
            offset += bytes.count
            let last = bytes.count < wanted || offset >= size
            try await replier.reply(part, base64: bytes, in: "data", continues: !last)
            if last { return }
        } while true
    }

    /// Up to `count` bytes of `source` from `offset` (fewer only at its end).
    private static func read(_ source: Int32, count: Int, at offset: Int) -> Result<[UInt8], SystemCallError> {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(source, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
            }
            if got > 0 {
                filled += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                return .failure(SystemCallError("pread", errno: errno))
            }
        }
        return .success(Array(bytes[..<filled]))
    }
}
