#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import VarlinkCore

extension OriginalsClient {
    /// Reads the original of `id` as bytes (OpenOriginal with `stream`), handing each chunk to
    /// `write` in order with the first reply's facts, for a client that cannot receive
    /// descriptors; returns those facts and how many bytes came. Bytes that do not join up (a
    /// gap, or a chunk out of order) are a protocol failure. What `write` throws is thrown as it
    /// is, and closes the connection (the rest of the stream is unread).
    public func read(id: String, into write: (OpenOriginalReply, [UInt8]) throws -> Void) throws
        -> (reply: OpenOriginalReply, count: Int) {
        let parameters = OpenOriginalParameters(id: id, acceptFileDescriptors: false, stream: true)
        CallCheck.check(LibraryMethods.openOriginal, parameters)
        let result: Result<(OpenOriginalReply, Int), any Error> = connection.withLock { connection in
            guard let connection else { return .failure(PhotoClientError.protocolFailure("the connection is closed")) }
            var first: OpenOriginalReply?
            var received = 0
            do {
                try connection.startStream(LibraryMethods.openOriginal.qualifiedName, parameters)
                while let reply = try connection.nextReply(as: OpenOriginalReply.self) {
                    guard reply.offset == received, let data = reply.data,
                          let bytes = Data(base64Encoded: data).map(Array.init) else {
                        connection.close()
                        return .failure(PhotoClientError.protocolFailure(
                            "OpenOriginal sent bytes at \(reply.offset ?? -1), expected \(received)"))
                    }
                    if first == nil { first = reply }
                    received += bytes.count
                    do {
                        try write(first ?? reply, bytes)
                    } catch {
                        // The rest of the stream would be read as the next call's answer.
                        connection.close()
                        return .failure(error)
                    }
                }
            } catch {
                return .failure(explained(.calling(failedWith: error)))
            }
            guard let first else { return .failure(PhotoClientError.protocolFailure("OpenOriginal sent no reply")) }
            return .success((first, received))
        }
        return try result.get()
    }
}
