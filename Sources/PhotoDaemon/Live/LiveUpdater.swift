import FileSystem
import Store
import Watcher

/// Turns a run of file actions from the watcher into one write batch.
///
/// Each touched path is judged by what is on disk now, not by the event alone, so repeated or
/// reordered events still end in the right state. Events only decide identity: a rename keeps
/// the asset's id, and a rename over an indexed photo (an atomic replace: write a temporary
/// file, rename it over the photo) keeps the replaced photo's id and updates it.
struct LiveUpdater {
    let store: StoreQueries
    let reader: AssetReader
    /// Every stat and open of the batch goes through real folders only, and a run of events in
    /// one folder reuses its handle.
    private let opener = SafeOpener()

    /// Where indexed files are after the earlier actions of this run (nil: none there).
    private var overlay: [[UInt8]: IndexedFile?] = [:]
    private var refresh: [[UInt8]] = []
    private var refreshing: Set<[UInt8]> = []
    /// Assets renamed in this run, by id: their new path.
    private var moved: [String: [UInt8]] = [:]
    private var removals: [String] = []

    init(store: StoreQueries, reader: AssetReader) {
        self.store = store
        self.reader = reader
    }

    /// The batch for `actions` (file actions only; directory actions are handled by the caller).
    /// Runs on one of the store's reader threads (`Store.reading`): it interleaves index lookups
    /// with stats and reads of the files, all blocking.
    static func batch(for actions: [WatchAction], store: StoreQueries, reader: AssetReader) throws -> WriteBatch {
        var updater = LiveUpdater(store: store, reader: reader)
        for action in actions { try updater.note(action) }
        return try updater.build()
    }

    private mutating func indexed(at path: [UInt8]) throws -> IndexedFile? {
        if let known = overlay[path] { return known }
        let file = try store.indexedFile(at: path)
        overlay[path] = .some(file)
        return file
    }

    private mutating func touch(_ path: [UInt8]) throws {
        if Sidecar.isSidecar(path) {
            try touchImages(of: path)
            return
        }
        if refreshing.insert(path).inserted { refresh.append(path) }
    }

    /// A sidecar changed: the indexed images it may describe are judged again (`name.ext` for
    /// `name.ext.xmp`; every `name.<ext>` for `name.xmp`). Their stamps say whether anything changed.
    private mutating func touchImages(of sidecar: [UInt8]) throws {
        guard reader.sources.contains(.sidecar) else { return }
        let images = Sidecar.images(of: sidecar)
        var paths: [[UInt8]] = []
        if try indexed(at: images.exact) != nil { paths.append(images.exact) }
        for file in try store.indexedFiles(withPrefix: images.stemPrefix) {
            let rest = file.path.dropFirst(images.stemPrefix.count)
            if !rest.isEmpty, !rest.contains(UInt8(ascii: "/")), !rest.contains(UInt8(ascii: ".")) {
                paths.append(file.path)
            }
        }
        for path in paths where refreshing.insert(path).inserted { refresh.append(path) }
    }

    private mutating func note(_ action: WatchAction) throws {
        switch action {
        case .fileWritten(let path), .fileArrived(let path), .fileRemoved(let path):
            try touch(path)
        case .fileLinked(let path):
            // Only a hard link appears without a write; anything else is still being written
            // and will be read on its close, never half-written.
            if case .success(let info) = opener.linkStatus(path), info.kind == .regular, info.linkCount > 1 {
                try touch(path)
            }
        case .fileMoved(let from, let to) where Sidecar.isSidecar(from) || Sidecar.isSidecar(to):
            // A sidecar renamed (or an image renamed to or from a sidecar's name): judge both ends.
            try touch(from)
            try touch(to)
        case .fileMoved(let from, let to):
            let source = try indexed(at: from)
            overlay[from] = .some(nil)
            try touch(to)
            guard var source else { return }
            if let target = try indexed(at: to), target.id != source.id {
                // Renamed over another photo: that photo keeps its id and takes the new bytes.
                removals.append(source.id)
                moved[source.id] = nil
                return
            }
            source.path = to
            overlay[to] = .some(source)
            moved[source.id] = to
        default:
            break
        }
    }

    private mutating func build() throws -> WriteBatch {
        var batch = WriteBatch()
        var updated: Set<String> = []
        for path in refresh {
            let known = try indexed(at: path)
            guard case .success(let info) = opener.linkStatus(path), info.kind == .regular else {
                if let known { removals.append(known.id) }
                continue
            }
            // Looked up once: the stamp compares it, and a read uses it.
            let sidecar = reader.sources.contains(.sidecar) ? Sidecar.find(for: path, opener: opener) : nil
            var stamp = FileStamp(info)
            stamp.sidecar = sidecar?.signature ?? 0
            if let known {
                let renamed = moved[known.id] != nil
                let changed = known.stamp.size != stamp.size || known.stamp.mtimeNs != stamp.mtimeNs
                    || known.stamp.inode != stamp.inode || known.stamp.device != stamp.device
                    || known.stamp.sidecar != stamp.sidecar
                guard renamed || changed else { continue }
                updated.insert(known.id)
                guard changed else {
                    // A plain rename: same bytes, nothing to read.
                    batch.updates.append(WriteBatch.Update(id: known.id, path: path, stamp: stamp, content: nil))
                    continue
                }
                switch reader.read(path, sidecar: .known(sidecar), opener: opener) {
                case .asset(let readStamp, let content):
                    batch.updates.append(WriteBatch.Update(id: known.id, path: path, stamp: readStamp, content: content))
                case .notAnImage:
                    updated.remove(known.id)
                    removals.append(known.id)
                case .unreadable:
                    updated.remove(known.id)
                }
            } else if case .asset(let readStamp, let content) = reader.read(path, sidecar: .known(sidecar), opener: opener) {
                if let asset = try MovedFileFinder.asset(for: readStamp, in: store), updated.insert(asset.id).inserted {
                    // The file came from a path whose rename half was never seen: same asset.
                    overlay[asset.path] = .some(nil)
                    batch.updates.append(WriteBatch.Update(id: asset.id, path: path, stamp: readStamp, content: content))
                } else {
                    batch.inserts.append(WriteBatch.Insert(path: path, stamp: readStamp, content: content))
                }
            }
        }
        batch.removals = removals.filter { !updated.contains($0) }
        return batch
    }
}
