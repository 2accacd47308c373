/// Descriptors received ahead of the message they belong to, kept until the frame decoder
/// returns that message.
///
/// Messages are counted from the next frame the decoder will return, so descriptors that came
/// with bytes of a later reply wait for that reply instead of joining the current one.
struct PendingDescriptors {
    private var batches: [(message: Int, descriptors: ReceivedFileDescriptors)] = []

    /// Keeps `descriptors` for the `message`-th frame from now; past the per-reply limit it
    /// closes them and throws.
    mutating func add(_ descriptors: ReceivedFileDescriptors, toMessage message: Int) throws(VarlinkFileDescriptorError) {
        let already = self.batches.filter { $0.message == message }.reduce(0) { $0 + $1.descriptors.count }
        guard already + descriptors.count <= DescriptorPassing.maxPerMessage else {
            descriptors.closeAll()
            throw .truncated(limit: DescriptorPassing.maxPerMessage)
        }
        self.batches.append((message, descriptors))
    }

    /// The descriptors of the frame the decoder just returned; later ones move one message closer.
    mutating func takeNext() -> ReceivedFileDescriptors {
        let current = self.batches.filter { $0.message == 0 }.flatMap { $0.descriptors.takeAll() }
        self.batches = self.batches.filter { $0.message > 0 }.map { ($0.message - 1, $0.descriptors) }
        return ReceivedFileDescriptors(current)
    }

    /// Closes every descriptor still waiting.
    mutating func closeAll() {
        for batch in self.batches {
            batch.descriptors.closeAll()
        }
        self.batches = []
    }
}
