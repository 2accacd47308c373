import FileSystem
import NIOPosix
import Store
import Watcher

/// Turns a run of file actions from the watcher into one write batch.
///
/// Each touched path is judged by what is on disk now, not by the event alone, so repeated or
/// reordered events still end in the right state. Events only decide identity: a rename keeps
/// the asset's id; a file the index does not hold renamed over an indexed photo (an atomic
/// replace: write a temporary file, rename it over the photo) keeps the replaced photo's id and
/// updates it; an indexed photo renamed over another keeps its own id and the other is removed.
struct LiveUpdater {
    let index: IndexSnapshot
    let reader: AssetReader
    /// Every stat and open of the batch goes through real folders only, and a run of events in
    /// one folder reuses its handle.
    private let opener = SafeOpener()

    /// Where indexed files are after the earlier actions of this run (nil: none there); what
    /// `index` says for any other path.
    private var overlay: [PathBytes: IndexedFile?] = [:]
    private var refresh: [PathBytes] = []
    private var refreshing: Set<PathBytes> = []
    /// Assets renamed in this run, by id: their new path.
    private var moved: [String: PathBytes] = [:]
    private var removals: [String] = []

    init(index: IndexSnapshot, reader: AssetReader) {
        self.index = index
        self.reader = reader
    }

    /// The batch for `actions` (file actions only; directory actions are handled by the caller).
    /// What the index holds for the files they name is read first (`IndexSnapshot`); then every
    /// stat and read of the files runs on `files`, the blocking file pool, with no store call inside.
    static func batch(for actions: [WatchAction], store: Store, reader: AssetReader,
                      files: NIOThreadPool) async throws -> WriteBatch {
        let index = try await IndexSnapshot.read(
            for: actions, from: store, sidecars: reader.sources.contains(.sidecar), files: files)
        return try await files.runIfActive {
            var updater = LiveUpdater(index: index, reader: reader)
            for action in actions { updater.note(action) }
            return updater.build()
        }
    }

    private func indexed(at path: PathBytes) -> IndexedFile? {
        if let known = overlay[path] { return known }
        return index.file(at: path)
    }

    private mutating func touch(_ path: PathBytes) {
        if Sidecar.isSidecar(path) {
            touchImages(of: path)
            return
        }
        if refreshing.insert(path).inserted { refresh.append(path) }
    }

    /// A sidecar changed: the indexed images it may describe are judged again (`name.ext` for
    /// `name.ext.xmp`; every `name.<ext>` for `name.xmp`). Their stamps say whether anything changed.
    private mutating func touchImages(of sidecar: PathBytes) {
        guard reader.sources.contains(.sidecar) else { return }
        let images = Sidecar.images(of: sidecar)
        var paths: [PathBytes] = []
        if indexed(at: images.exact) != nil { paths.append(images.exact) }
        for file in index.files(withPrefix: images.stemPrefix) {
            // `name.<ext>` exactly: one extension, in the sidecar's folder (`name.a.b`, `name.d/x` are not).
            let rest = file.path.bytes.dropFirst(images.stemPrefix.bytes.count)
            if !rest.isEmpty, !rest.contains(UInt8(ascii: "/")), !rest.contains(UInt8(ascii: ".")) {
                paths.append(file.path)
            }
        }
        for path in paths where refreshing.insert(path).inserted { refresh.append(path) }
    }

    private mutating func note(_ action: WatchAction) {
        switch action {
        case .fileWritten(let path), .fileArrived(let path), .fileRemoved(let path):
            touch(path)
        case .fileLinked(let path):
            // Only a hard link appears without a write; anything else is still being written
            // and will be read on its close, never half-written.
            if case .success(let info) = opener.linkStatus(path), info.kind == .regular, info.linkCount > 1 {
                touch(path)
            }
        case .fileMoved(let from, let to) where Sidecar.isSidecar(from) || Sidecar.isSidecar(to):
            // A sidecar renamed (or an image renamed to or from a sidecar's name): judge both ends.
            touch(from)
            touch(to)
        case .fileMoved(let from, let to) where TemporaryName.isBackup(to, of: from) && isRegularFile(from):
            // ExifTool's save without -overwrite_original: the photo is renamed NAME_original as a
            // backup and the edited file takes its place. The photo keeps its id at its path, with
            // the new bytes (judged first); the backup, though on the photo's old inode, is then a
            // new file, as that id is taken.
            touch(from)
            touch(to)
        case .fileMoved(let from, let to):
            let source = indexed(at: from)
            overlay[from] = .some(nil)
            touch(to)
            guard var source else { return }
            if let target = indexed(at: to), target.id != source.id {
                // A photo of the library renamed over another is still that photo, under its own
                // id; the one it replaced leaves the library, and with it every grant naming it.
                // Only a file the index did not hold (an editor's temporary file) renamed over a
                // photo is that photo's new bytes: a photo moved onto a granted path must never
                // be shown under the granted id.
                removals.append(target.id)
                moved[target.id] = nil
            }
            source.path = to
            overlay[to] = .some(source)
            moved[source.id] = to
        default:
            break
        }
    }

    private func isRegularFile(_ path: PathBytes) -> Bool {
        guard case .success(let info) = opener.linkStatus(path) else { return false }
        return info.kind == .regular
    }

    private mutating func build() -> WriteBatch {
        var batch = WriteBatch()
        var updated: Set<String> = []
        for path in refresh {
            let known = indexed(at: path)
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
                let changed = !stamp.isUnchanged(since: known.stamp)
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
                if let asset = index.movedFiles.asset(for: readStamp), updated.insert(asset.id).inserted {
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
