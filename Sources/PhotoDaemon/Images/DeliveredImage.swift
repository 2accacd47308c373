import PhotoAPI
import Varlink

/// One image on its way to a caller: the reply's fields, and the encoded image as bytes.
///
/// The bytes become the reply's base64 `data` only as the reply is written, a piece at a time, so
/// a 2048-px PNG is held once (about 17 MB) rather than as 22 MB of text several times over.
struct DeliveredImage: Sendable {
    /// The reply with `data` left empty.
    var reply: RequestImageReply
    /// The encoded image that goes into `data`.
    var bytes: [UInt8]

    init(format: PhotoAPI.ImageFormat, width: Int, height: Int, degraded: Bool, source: ImageSource,
         orientation: Int, bytes: [UInt8]) {
        self.reply = RequestImageReply(format: format, width: width, height: height, degraded: degraded,
                                       source: source, orientation: orientation, data: "")
        self.bytes = bytes
    }

    /// Sends this image as one RequestImage reply.
    func send(with replier: VarlinkReplier, continues: Bool = false) async throws {
        try await replier.reply(reply, base64: bytes, in: "data", continues: continues)
    }
}
