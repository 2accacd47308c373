/// File descriptors a client passes with a call (SCM_RIGHTS, as sd-varlink sends them), which the
/// call's parameters name by index: `"fileDescriptor": 0` is the first.
extension VarlinkCall {
    /// How many file descriptors came with the call, taken ones included.
    public var receivedFileDescriptorCount: Int {
        self.passedDescriptors?.count ?? 0
    }

    /// Hands the descriptor at `index` over to the handler, who must close it; nil when the call
    /// carried no such index or it was already taken. The server closes the ones not taken once
    /// the handler returns.
    public func takeFileDescriptor(_ index: Int) -> Int32? {
        self.passedDescriptors?.take(index)
    }
}
