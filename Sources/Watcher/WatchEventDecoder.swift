import FileSystem

/// Pure decoder: keeps wd → folder path, pairs renames by cookie, drops hidden names ("." prefix)
/// as outside the library, and holds back files written under an editor's temporary name
/// (`SettlingFiles`) so that their rename over a photo arrives as that photo's update; likewise
/// a photo renamed to ExifTool's backup name waits for the edited file that takes its place.
///
/// It never touches the kernel, so every rule is tested from synthetic events. The wds it stops
/// tracking while their kernel watch may still exist (a folder moved out or renamed to a hidden
/// name) are listed in `retired` for the owner to remove.
public struct WatchEventDecoder: Sendable {
    /// How long an unpaired MOVED_FROM waits for its MOVED_TO (the halves normally arrive in one
    /// read; a buffer boundary can split them).
    public static let pairingGrace: Duration = .milliseconds(20)

    /// A photo renamed to its backup name, waiting for the edited file to take its place.
    private struct HeldBackup: Sendable {
        var from: PathBytes
        var to: PathBytes
        var deadline: ContinuousClock.Instant
    }

    /// A MOVED_FROM waiting for its MOVED_TO.
    private struct HeldMove: Sendable {
        var cookie: UInt32
        var path: PathBytes
        var isDirectory: Bool
        var isHidden: Bool
        var deadline: ContinuousClock.Instant
    }

    private var folders: [Int32: PathBytes] = [:]
    private var watches: [PathBytes: Int32] = [:]
    private var held: [HeldMove] = []
    /// Photos renamed `NAME_original` by ExifTool, held until a file takes their place (see `arrive`).
    private var backups: [HeldBackup] = []
    private var settling = SettlingFiles()
    /// Forgotten wds whose kernel watch may still be alive; the owner removes them and clears this.
    var retired: [Int32] = []

    /// Creates a decoder that knows no watches.
    public init() {}

    /// Records that `wd` watches the folder at `path` (replacing what either was bound to).
    public mutating func watched(_ wd: Int32, path: PathBytes) {
        if let old = folders[wd], old != path, watches[old] == wd { watches[old] = nil }
        if let other = watches[path], other != wd {
            folders[other] = nil
            retired.append(other)
        }
        folders[wd] = path
        watches[path] = wd
    }

    /// Forgets `wd` (its events are dropped from now on).
    public mutating func forget(_ wd: Int32) {
        guard let path = folders.removeValue(forKey: wd) else { return }
        if watches[path] == wd { watches[path] = nil }
    }

    /// The folder `wd` watches, if known.
    public func path(of wd: Int32) -> PathBytes? { folders[wd] }

    /// How many watches the decoder knows.
    public var watchCount: Int { folders.count }

    /// The wd watching exactly `path`, if any.
    func watch(at path: PathBytes) -> Int32? { watches[path] }

    /// The wds watching `folder` or anything below it.
    func watches(under folder: PathBytes) -> [Int32] {
        folders.compactMap { $0.value.isSameOrInside(folder) ? $0.key : nil }
    }

    /// Every known wd.
    var allWatches: [Int32] { Array(folders.keys) }

    /// When `expire` should next be called; nil when nothing is held.
    public var nextDeadline: ContinuousClock.Instant? {
        [held.map(\.deadline).min(), backups.map(\.deadline).min(), settling.nextDeadline].compactMap { $0 }.min()
    }

    /// The shortest time anything is held for: a hold made later is never due sooner than this
    /// after it was made, so a timer that sleeps no longer than this misses none.
    public static var shortestGrace: Duration { min(pairingGrace, SettlingFiles.grace) }

    /// Decodes a batch at time `now`. Unpaired MOVED_FROMs are held (not emitted) until
    /// `expire(now:)` passes their deadline.
    public mutating func decode(_ events: [WatchEvent], now: ContinuousClock.Instant) -> [WatchAction] {
        var out = ActionCoalescer()
        for event in events { decode(event, now: now, into: &out) }
        return out.actions
    }

    /// Emits held MOVED_FROMs whose grace has passed (as fileRemoved / directoryRemoved), and
    /// the files with a temporary name that stayed.
    public mutating func expire(now: ContinuousClock.Instant) -> [WatchAction] {
        var out = ActionCoalescer()
        let due = held.filter { $0.deadline <= now }
        held.removeAll { $0.deadline <= now }
        for move in due { depart(move, into: &out) }
        releaseBackups(where: { $0.deadline <= now }, into: &out)
        for action in settling.expire(now: now) { out.add(action) }
        return out.actions
    }

    private mutating func decode(_ event: WatchEvent, now: ContinuousClock.Instant, into out: inout ActionCoalescer) {
        if event.mask & WatchMask.queueOverflow != 0 {
            releaseBackups(where: { _ in true }, into: &out)
            out.add(.overflow)
            return
        }
        guard let folder = folders[event.wd] else { return }
        if event.mask & WatchMask.ignored != 0 {
            forget(event.wd)
            return
        }
        guard !event.name.isEmpty else {
            decodeSelf(event, folder: folder, into: &out)
            return
        }
        let path = folder.appending(event.name)
        // A hidden name ("." prefix) is outside the library.
        let hidden = event.name.first == UInt8(ascii: ".")
        let isDirectory = event.mask & WatchMask.isDirectory != 0
        // A held source whose name is used again was not renamed inside the library: say so first.
        flushHeld(at: path, into: &out)
        // A backup comes out with whatever happens next at either of its names, in the same batch.
        releaseBackups(where: { $0.from == path || $0.to == path }, into: &out)
        if event.mask & (WatchMask.movedFrom | WatchMask.movedTo | WatchMask.delete) != 0 {
            // Renamed away, replaced or deleted: the event itself says what became of the file.
            settling.drop(path)
        }
        if event.mask & WatchMask.movedFrom != 0 {
            let move = HeldMove(
                cookie: event.cookie, path: path, isDirectory: isDirectory, isHidden: hidden,
                deadline: now + Self.pairingGrace)
            held.append(move)
        } else if event.mask & WatchMask.movedTo != 0 {
            arrive(at: path, named: event.name, cookie: event.cookie, isDirectory: isDirectory, isHidden: hidden,
                   now: now, into: &out)
        } else if hidden {
            return
        } else if event.mask & WatchMask.create != 0 {
            out.add(isDirectory ? .directoryCreated(path) : .fileLinked(path))
        } else if event.mask & WatchMask.closeWrite != 0, !isDirectory {
            announce(.fileWritten(path), at: path, named: event.name, now: now, into: &out)
        } else if event.mask & WatchMask.delete != 0 {
            if isDirectory { removeDirectory(path, into: &out) } else { out.add(.fileRemoved(path)) }
        }
    }

    /// DELETE_SELF / MOVE_SELF / UNMOUNT of a watched folder.
    ///
    /// Below a watched parent, the parent's own event tells what happened; a deleted or unmounted
    /// folder's watch is gone, but a moved one still works (at the path the parent's rename gave it).
    private mutating func decodeSelf(_ event: WatchEvent, folder: PathBytes, into out: inout ActionCoalescer) {
        let gone = WatchMask.deleteSelf | WatchMask.unmount
        guard event.mask & (gone | WatchMask.moveSelf) != 0 else { return }
        if let parent = folder.parent, watches[parent] != nil {
            if event.mask & gone != 0 { forget(event.wd) }
            return
        }
        releaseBackups(where: { $0.from.isSameOrInside(folder) }, into: &out)
        out.add(.watchedDirectoryGone(folder))
    }

    private mutating func arrive(
        at path: PathBytes, named name: [UInt8], cookie: UInt32, isDirectory: Bool, isHidden: Bool,
        now: ContinuousClock.Instant, into out: inout ActionCoalescer
    ) {
        guard let index = held.firstIndex(where: { $0.cookie == cookie }) else {
            if !isHidden { arrival(at: path, named: name, isDirectory: isDirectory, now: now, into: &out) }
            return
        }
        let source = held.remove(at: index)
        switch (source.isHidden, isHidden) {
        case (true, true):
            break
        case (true, false):
            arrival(at: path, named: name, isDirectory: isDirectory, now: now, into: &out)
        case (false, true):
            depart(source, into: &out)
        case (false, false):
            if source.isDirectory {
                moveDirectory(from: source.path, to: path, into: &out)
            } else if TemporaryName.isBackup(path, of: source.path) {
                // ExifTool without -overwrite_original renames the photo NAME_original, then its
                // edited file over NAME. Seen in one batch the photo keeps its id at NAME; split
                // across two (a loaded machine), the id would follow the backup and the edit be
                // a new photo. So the rename waits for the file at NAME, or its grace.
                backups.append(HeldBackup(from: source.path, to: path, deadline: now + SettlingFiles.grace))
            } else {
                out.add(.fileMoved(from: source.path, to: path))
            }
        }
    }

    /// A folder or file appearing from outside the library (moved in, or renamed from a hidden name).
    private mutating func arrival(
        at path: PathBytes, named name: [UInt8], isDirectory: Bool, now: ContinuousClock.Instant,
        into out: inout ActionCoalescer
    ) {
        if isDirectory {
            out.add(.directoryCreated(path))
        } else {
            announce(.fileArrived(path), at: path, named: name, now: now, into: &out)
        }
    }

    /// Emits a new or rewritten file's action, or holds it while its name says an editor is about
    /// to rename it over a photo.
    private mutating func announce(
        _ action: WatchAction, at path: PathBytes, named name: [UInt8], now: ContinuousClock.Instant,
        into out: inout ActionCoalescer
    ) {
        if TemporaryName.isTemporary(name) {
            settling.hold(action, at: path, now: now)
        } else {
            out.add(action)
        }
    }

    /// A MOVED_FROM that got no visible MOVED_TO: its source left the library.
    private mutating func depart(_ move: HeldMove, into out: inout ActionCoalescer) {
        guard !move.isHidden else { return }
        if move.isDirectory { removeDirectory(move.path, into: &out) } else { out.add(.fileRemoved(move.path)) }
    }

    private mutating func flushHeld(at path: PathBytes, into out: inout ActionCoalescer) {
        guard held.contains(where: { $0.path == path }) else { return }
        let stale = held.filter { $0.path == path }
        held.removeAll { $0.path == path }
        for move in stale { depart(move, into: &out) }
    }

    /// Emits the held backups that `predicate` picks, in the order they were renamed.
    private mutating func releaseBackups(where predicate: (HeldBackup) -> Bool, into out: inout ActionCoalescer) {
        guard backups.contains(where: predicate) else { return }
        for backup in backups where predicate(backup) { out.add(.fileMoved(from: backup.from, to: backup.to)) }
        backups.removeAll(where: predicate)
    }

    private mutating func removeDirectory(_ path: PathBytes, into out: inout ActionCoalescer) {
        releaseBackups(where: { $0.from.isSameOrInside(path) }, into: &out)
        out.add(.directoryRemoved(path))
        settling.drop(under: path)
        for wd in watches(under: path) {
            forget(wd)
            retired.append(wd)
        }
    }

    private mutating func moveDirectory(from: PathBytes, to: PathBytes, into out: inout ActionCoalescer) {
        releaseBackups(where: { $0.from.isSameOrInside(from) || $0.from.isSameOrInside(to) }, into: &out)
        // An empty folder renamed over is gone; its watch must not claim the new name.
        for wd in watches(under: to) {
            forget(wd)
            retired.append(wd)
        }
        for wd in watches(under: from) {
            guard let old = folders[wd] else { continue }
            forget(wd)
            watched(wd, path: old.rebased(from: from, to: to))
        }
        for index in held.indices where held[index].path.isSameOrInside(from) {
            held[index].path = held[index].path.rebased(from: from, to: to)
        }
        settling.rebase(from: from, to: to)
        out.add(.directoryMoved(from: from, to: to))
    }
}
