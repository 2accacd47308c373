/// One inotify event as the kernel reported it.
public struct WatchEvent: Sendable, Equatable {
    /// The watch descriptor the event is about (-1 for a queue overflow).
    public var wd: Int32
    /// The event bits (see `WatchMask`).
    public var mask: UInt32
    /// Links the two halves of a rename; 0 otherwise.
    public var cookie: UInt32
    /// The entry's name inside the watched folder; empty when the event is about the folder itself.
    public var name: [UInt8]

    /// Creates an event value.
    public init(wd: Int32, mask: UInt32, cookie: UInt32, name: [UInt8]) {
        self.wd = wd
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }
}
