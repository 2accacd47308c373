extension RequestImageParameters {
    /// The largest box side RequestImage serves; originals go through OpenOriginal.
    public static let maximumSide = 2048
}

extension RequestImageReply {
    /// The largest `data` photod sends (base64 text): a 2048x2048 PNG of 8-bit RGBA noise is 22.4 MB
    /// of it. A larger image is ImageUnavailable; clients accept replies of at least this.
    public static let maximumDataBytes = 24 << 20
}

extension OpenOriginalParameters {
    /// Parameters that say this client receives descriptors, as OpenOriginal's reply needs; the
    /// generated initialiser would leave `acceptFileDescriptors` absent (FileDescriptorsRequired).
    public init(id: String) {
        self.init(id: id, acceptFileDescriptors: true)
    }
}
