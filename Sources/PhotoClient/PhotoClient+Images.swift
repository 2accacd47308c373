import PhotoAPI

extension PhotoClient {
    /// One image of an asset scaled into the box: for `fast` and `highQuality` the only reply.
    ///
    /// `opportunistic` answers twice, so ask for it with `requestImages` instead; here it is
    /// refused rather than leaving the second reply unread on the connection.
    public func requestImage(_ parameters: RequestImageParameters) async throws(PhotoClientError) -> RequestImageReply {
        guard parameters.deliveryMode != .opportunistic else {
            throw .protocolFailure("the opportunistic delivery mode answers twice; use requestImages")
        }
        return try await call(LibraryMethods.requestImage, parameters)
    }

    /// Every image RequestImage delivers, as a `more` call: for `opportunistic` the fast
    /// (degraded) one first, then the high-quality one.
    public func requestImages(_ parameters: RequestImageParameters) -> AsyncThrowingStream<RequestImageReply, Error> {
        stream(LibraryMethods.requestImage, parameters) { $0 }
    }
}
