import FileSystem

/// A set of writes committed in one transaction as one change.
public struct WriteBatch: Sendable {
    /// A file not yet in the index; the store assigns it a new id.
    public struct Insert: Sendable {
        public var path: PathBytes
        public var stamp: FileStamp
        public var content: AssetContent

        /// Creates an insert.
        public init(path: PathBytes, stamp: FileStamp, content: AssetContent) {
            self.path = path
            self.stamp = stamp
            self.content = content
        }
    }

    /// A known asset (by id) whose path, stamp or content changed; nil content keeps the stored content.
    public struct Update: Sendable {
        public var id: String
        public var path: PathBytes
        public var stamp: FileStamp
        public var content: AssetContent?

        /// Creates an update.
        public init(id: String, path: PathBytes, stamp: FileStamp, content: AssetContent?) {
            self.id = id
            self.path = path
            self.stamp = stamp
            self.content = content
        }
    }

    /// An asset to remove only while it is still at `path`: a row a reconcile found no file
    /// at, which a move written before it in the same reconcile may have taken elsewhere.
    public struct Vanished: Sendable, Equatable {
        public var id: String
        public var path: PathBytes

        /// Creates a removal of `id` at `path`.
        public init(id: String, path: PathBytes) {
            self.id = id
            self.path = path
        }
    }

    public var inserts: [Insert] = []
    public var updates: [Update] = []
    /// Ids of assets to remove.
    public var removals: [String] = []
    /// Assets to remove unless they moved; applied after the updates.
    public var vanished: [Vanished] = []

    /// An empty batch.
    public init() {}

    /// True when there is nothing to write.
    public var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && removals.isEmpty && vanished.isEmpty }

    /// Number of operations in the batch.
    public var count: Int { inserts.count + updates.count + removals.count + vanished.count }
}
