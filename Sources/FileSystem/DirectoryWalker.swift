#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Walks a folder tree without following symlinks, reporting regular files in path order: the
/// byte order of their full paths, the order an index keyed by path keeps them in, so the two
/// can be compared as they go, neither held whole in memory.
///
/// Only the root is opened by path (through real folders only, see `SafeOpener`); every folder
/// below it is opened with `openat(O_NOFOLLOW)` from its parent's descriptor, never by its full
/// path again, so a folder swapped for a symlink between listing and descending is never
/// followed: the walk cannot leave the root. Hidden entries (names starting with ".") are
/// skipped: they are editors' and tools' temporary files and caches, never photos a person
/// filed; photod's own leftover temporary files among them can be removed on the way
/// (`start(sweepingLeftovers:)`). Entries the `ignoring` rules name are skipped the same way: an
/// ignored folder is never opened. A folder reached twice (through a bind mount) is walked once. Memory holds one
/// listing per level of the tree being walked, not the tree.
public struct DirectoryWalker {
    /// A regular file found by the walk.
    public struct Entry: Sendable {
        public var path: PathBytes
        public var info: FileInfo
        /// The listing of the folder it is in: its siblings, found without another system call.
        public var folder: FolderListing?

        /// Creates an entry.
        public init(path: PathBytes, info: FileInfo, folder: FolderListing? = nil) {
            self.path = path
            self.info = info
            self.folder = folder
        }
    }

    private let root: PathBytes
    /// The paths walked; nil: all.
    private let range: PathRange?
    /// Called with a listed folder's path just before it is opened (tests swap folders here).
    var willOpenFolder: ((PathBytes) -> Void)?
    /// Called with each folder's path once it is open and just before it is listed (the daemon
    /// watches it there, so nothing made in it after the listing goes unseen).
    public var beforeListing: ((PathBytes) -> Void)?
    /// Files and folders left out, as if they were not there (`[library] ignore`).
    public var ignoring = IgnoreRules.none
    /// The library root the `ignoring` patterns' paths are relative to; nil: the walk's root (a
    /// walk of a folder inside a root sets the root).
    public var ignoreBase: PathBytes?
    /// Folders never opened, by full path: drives that are away, and polled file systems
    /// reconciled on their own threads, where even a stat may hang.
    public var skippingFolders: Set<PathBytes> = []
    /// Asked with each folder and its status just before it is listed: true when its entries
    /// are known not to have changed since a listing the caller remembers (a polled file
    /// system's folder whose time did not move), so its files are listed by name, not stat-ed,
    /// each with `FileInfo.unchangedFolder`.
    public var folderUnchanged: ((PathBytes, FileInfo) -> Bool)?
    /// Asked with each folder just before it is listed: true when the caller knows its files
    /// already (their folder matched its fingerprint), so only its subfolders are listed and walked.
    public var leavingOutFiles: ((PathBytes) -> Bool)?

    /// Prepares a walk of `root`, an absolute path; `range`: only the files whose paths lie in
    /// it (folders wholly outside it are not opened).
    public init(root: PathBytes, range: PathRange? = nil) {
        self.root = root
        self.range = range
    }

    /// Walks the tree, calling `visit` for every regular file, in path order, and `failed` for
    /// folders it cannot read.
    public func walk(visit: (Entry) -> Void, failed: (FileSystemError) -> Void = { _ in }) {
        var cursor = start()
        while true {
            let step = cursor.next(upTo: 256)
            step.failures.forEach(failed)
            step.entries.forEach(visit)
            if step.isLast { return }
        }
    }

    /// A walk to pull from, a few entries at a time. `statingFiles` false: regular files are
    /// known by their directory entry alone (their `info` is `FileInfo.unstated`; an entry of
    /// unknown type is still stat-ed), in the same order: for a walk whose caller opens and
    /// fstats every file anyway (a first index), where a stat by name is a cost of its own per file.
    /// `sweepingLeftovers`: the `NewFile` temporary files a crash left in the folders listed are
    /// removed as they are listed (see `LeftoverTemporaries`), and each step names them.
    public func start(statingFiles: Bool = true, sweepingLeftovers: Bool = false) -> Cursor {
        Cursor(root: root, range: range, willOpenFolder: willOpenFolder, beforeListing: beforeListing,
               statFiles: statingFiles, sorted: true, sweeps: sweepingLeftovers, ignoring: cursorIgnoring(root),
               folderUnchanged: folderUnchanged, leavingOutFiles: leavingOutFiles)
    }

    /// A walk that lists folders whole and hands each listing over (`Cursor.nextFolder()`), its
    /// files stat-ed but not taken one by one: listings are not sorted (a fingerprint does not
    /// need it). `beforeListing` is called, and leftovers are swept (`Cursor.takeSwept()`), as in a walk.
    public func startListingFolders() -> Cursor {
        Cursor(root: root, range: range, willOpenFolder: willOpenFolder, beforeListing: beforeListing,
               statFiles: true, sorted: false, sweeps: true, ignoring: cursorIgnoring(root))
    }

    /// Up to `parts` ranges that together hold every path under the root, in order, for walks
    /// side by side: split between the subfolders (and files) of the first folder that has more
    /// than one entry, as evenly as their number allows. One range when the tree cannot be split.
    public func split(into parts: Int) -> [PathRange] {
        var cursor = Cursor(root: root, range: nil, willOpenFolder: willOpenFolder, beforeListing: nil, statFiles: false,
                            sorted: false, ignoring: cursorIgnoring(root))
        let keys = cursor.splitKeys()
        let count = min(max(1, parts), keys.count)
        guard count > 1 else { return [PathRange(low: nil, high: nil)] }
        // Part k starts at the key of the first entry it holds.
        let bounds = (1..<count).map { keys[$0 * keys.count / count] }
        return (0..<count).map { part in
            PathRange(low: part == 0 ? nil : bounds[part - 1], high: part == count - 1 ? nil : bounds[part])
        }
    }

    /// How many regular files the tree holds whose name `include` accepts: a quicker pass than a
    /// walk (folders are listed, not sorted, and only entries of unknown type are stat-ed), for a
    /// progress total. Files that change meanwhile may make it a little off.
    public func countFiles(where include: ([UInt8]) -> Bool) -> Int {
        var cursor = Cursor(root: root, range: range, willOpenFolder: willOpenFolder, beforeListing: nil, statFiles: false,
                            sorted: false, ignoring: cursorIgnoring(root))
        return cursor.countRest(where: include)
    }

    /// The rules and how many leading bytes of a folder's path (with its trailing "/") are the
    /// base's, so the rest is its path from the base.
    private func cursorIgnoring(_ root: PathBytes) -> Cursor.Ignoring {
        Cursor.Ignoring(rules: ignoring, baseLength: (ignoreBase ?? root).folderPrefix.bytes.count, folders: skippingFolders)
    }

    /// What one pull from a `Cursor` found.
    public struct Step {
        /// Files, in path order, continuing the previous step's.
        public var entries: [Entry] = []
        /// Folders that could not be read since the previous step.
        public var failures: [FileSystemError] = []
        /// Leftover temporary files removed since the previous step (a walk that sweeps them).
        public var swept: [PathBytes] = []
        /// True when the walk is over: no later step finds anything.
        public var isLast = false
    }

    /// A walk in progress: the listed folders from the root down to the current one, each with
    /// its entries sorted and a position in them.
    public struct Cursor {
        private var frames: [Frame] = []
        private var seen: Set<FileIdentity> = []
        private var pendingFailures: [FileSystemError] = []
        private var pendingSwept: [PathBytes] = []
        /// Whether `nextFolder()` has handed over the root's listing.
        private var rootHandedOver = false
        private let willOpenFolder: ((PathBytes) -> Void)?
        private let beforeListing: ((PathBytes) -> Void)?
        /// Whether regular files are stat-ed, or only named.
        private let statFiles: Bool
        /// See `DirectoryWalker.folderUnchanged`.
        private let folderUnchanged: ((PathBytes, FileInfo) -> Bool)?
        /// See `DirectoryWalker.leavingOutFiles`.
        private let leavingOutFiles: ((PathBytes) -> Bool)?
        /// Whether listings are sorted into path order (a walk) or left as read (a count).
        private let sorted: Bool
        /// Whether leftover temporary files are removed from the folders listed.
        private let sweeps: Bool
        private let range: PathRange?
        /// Entries left out as if they were not there.
        private let ignoring: Ignoring

        /// Ignore rules, and the length of the base folder's prefix in the paths they are given.
        fileprivate struct Ignoring {
            let rules: IgnoreRules
            let baseLength: Int
            let folders: Set<PathBytes>

            /// Whether the entry `name` of the folder `folderPrefix` (a full path ending in "/") is ignored.
            func skips(_ name: [UInt8], in folderPrefix: PathBytes, isFolder: Bool) -> Bool {
                if isFolder, !folders.isEmpty, folders.contains(PathBytes(folderPrefix.bytes + name)) { return true }
                guard !rules.isEmpty else { return false }
                let folder = folderPrefix.bytes.dropFirst(min(baseLength, folderPrefix.bytes.count))
                return rules.ignores(name: name, inFolder: folder, isFolder: isFolder)
            }
        }

        fileprivate init(root: PathBytes, range: PathRange?, willOpenFolder: ((PathBytes) -> Void)?,
                         beforeListing: ((PathBytes) -> Void)?, statFiles: Bool, sorted: Bool, sweeps: Bool = false,
                         ignoring: Ignoring, folderUnchanged: ((PathBytes, FileInfo) -> Bool)? = nil,
                         leavingOutFiles: ((PathBytes) -> Bool)? = nil) {
            self.leavingOutFiles = leavingOutFiles
            self.ignoring = ignoring
            self.folderUnchanged = folderUnchanged
            self.willOpenFolder = willOpenFolder
            self.beforeListing = beforeListing
            self.statFiles = statFiles
            self.sorted = sorted
            self.sweeps = sweeps
            self.range = range
            switch SafeOpener().openFolder(root) {
            case .success(let fd): push(fd, path: root, bounded: range != nil)
            case .failure(let error): pendingFailures.append(error)
            }
        }

        /// The sort keys of the entries of the first folder from the root down that has more
        /// than one (a folder's key ends in "/"), as full paths; none for an empty tree.
        fileprivate mutating func splitKeys() -> [PathBytes] {
            while let top = frames.last {
                var children = top.listing.children
                children.sort(by: FolderListing.Child.precedes)
                if children.count == 1, children[0].info == nil {
                    let path = top.listing.path(of: children[0].name)
                    frames.removeAll()
                    descend(into: children[0].name, path: path, parent: top.folder, bounded: false)
                    continue
                }
                return children.map { child in
                    let path = top.listing.path(of: child.name)
                    return child.info == nil ? path.folderPrefix : path
                }
            }
            return []
        }

        /// Up to `limit` more files (fewer at the end of the walk).
        public mutating func next(upTo limit: Int) -> Step {
            var step = Step()
            step.entries.reserveCapacity(limit)
            while step.entries.count < limit, let file = nextFile() {
                step.entries.append(Entry(path: file.listing.path(of: file.name), info: file.info, folder: file.listing))
            }
            step.failures = pendingFailures
            pendingFailures = []
            step.swept = pendingSwept
            pendingSwept = []
            step.isLast = frames.isEmpty
            return step
        }

        /// The next folder listed, its files passed over; nil at the end of the walk. The
        /// folders that could not be read meanwhile are in `takeFailures()`.
        public mutating func nextFolder() -> FolderListing? {
            if !rootHandedOver {
                rootHandedOver = true
                if let root = frames.first { return root.listing }
            }
            while let (child, listing, top) = nextChild() {
                guard child.info == nil else { continue }
                let depth = frames.count
                enter(child.name, of: listing, frame: top)
                if frames.count > depth, let pushed = frames.last { return pushed.listing }
            }
            return nil
        }

        /// The leftover temporary files removed since the last call.
        public mutating func takeSwept() -> [PathBytes] {
            defer { pendingSwept = [] }
            return pendingSwept
        }

        /// The folders that could not be read (or read whole) since the last call.
        public mutating func takeFailures() -> [FileSystemError] {
            defer { pendingFailures = [] }
            return pendingFailures
        }

        /// Counts the files of the rest of the walk that `include` accepts, by name.
        fileprivate mutating func countRest(where include: ([UInt8]) -> Bool) -> Int {
            var count = 0
            while let file = nextFile() {
                if include(file.name) { count += 1 }
            }
            return count
        }

        /// The walk's next file in the range, with its folder's listing; the folders on the way
        /// are entered. Nil at the end of the walk.
        private mutating func nextFile() -> (name: [UInt8], info: FileInfo, listing: FolderListing)? {
            while let (child, listing, top) = nextChild() {
                guard let info = child.info else {
                    enter(child.name, of: listing, frame: top)
                    continue
                }
                if frames[top].bounded, let range, !range.contains(listing.path(of: child.name)) { continue }
                return (child.name, info, listing)
            }
            return nil
        }

        /// The current folder's next entry, with the folder's listing and frame; the folders
        /// whose entries are used up are left on the way. Nil at the end of the walk.
        private mutating func nextChild() -> (FolderListing.Child, FolderListing, Int)? {
            while let top = frames.indices.last {
                let listing = frames[top].listing
                guard frames[top].next < listing.children.count else {
                    frames.removeLast()
                    continue
                }
                frames[top].next += 1
                return (listing.children[frames[top].next - 1], listing, top)
            }
            return nil
        }

        /// Opens and lists the subfolder `name` of the folder of frame `top`, which becomes the current one.
        private mutating func enter(_ name: [UInt8], of listing: FolderListing, frame top: Int) {
            descend(into: name, path: listing.path(of: name), parent: frames[top].folder, bounded: frames[top].bounded)
        }

        private mutating func descend(into name: [UInt8], path: PathBytes, parent: OpenFolder, bounded: Bool) {
            willOpenFolder?(path)
            let fd = FileSystem.withCString(name) {
                openat(parent.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard fd >= 0 else {
                // ELOOP, ENOTDIR: no longer a folder (a symlink now), skipped like any symlink.
                if errno != ELOOP && errno != ENOTDIR {
                    pendingFailures.append(FileSystemError(path: path, errno: errno, operation: "open folder"))
                }
                return
            }
            push(fd, path: path, bounded: bounded)
        }

        /// Lists the open folder `fd` (taking it over) and makes it the current one. `bounded`:
        /// the parent's entries were checked against the range (a folder wholly inside it is not).
        private mutating func push(_ fd: Int32, path: PathBytes, bounded parentBounded: Bool) {
            guard let identity = FileIdentity(descriptor: fd), seen.insert(identity).inserted else {
                close(fd)
                return
            }
            guard let stream = fdopendir(fd) else {
                pendingFailures.append(FileSystemError(path: path, errno: errno, operation: "fdopendir"))
                close(fd)
                return
            }
            let folder = OpenFolder(stream)
            beforeListing?(path)
            let prefix = path.folderPrefix
            let bounded = parentBounded && !(range?.holdsEverything(under: prefix) ?? true)
            var status = stat()
            let unchanged = statFiles && folderUnchanged.map { asked in
                fstat(fd, &status) == 0 && asked(path, FileInfo(status))
            } == true
            let listing = FolderListing(prefix: prefix, children: list(folder, at: path, prefix: prefix, bounded: bounded,
                                                                       unchanged: unchanged,
                                                                       leavingOutFiles: leavingOutFiles?(path) == true))
            frames.append(Frame(folder: folder, listing: listing, bounded: bounded))
        }

        /// Removes the entry if it is a leftover temporary file, and notes its path for the step.
        private mutating func sweep(_ entry: UnsafeMutablePointer<dirent>, named name: [UInt8], in folder: OpenFolder,
                                    at folderPrefix: PathBytes) {
            let removed = DirectoryWalker.withName(of: entry) { LeftoverTemporaries.removeIfLeftover(named: $0, in: folder.descriptor) }
            if removed == true { pendingSwept.append(folderPrefix.appending(name)) }
        }

        /// The folder's visible files (with their status) and subfolders, in path order; only
        /// the subfolders that reach into the range when it is `bounded` (it straddles a bound).
        /// `folderPrefix`: its path with a trailing "/".
        /// `unchanged`: the folder did not change since the caller last listed it, so its regular
        /// files are not stat-ed (`FileInfo.unchangedFolder`).
        /// A folder whose listing fails part way (EIO), or one of whose files cannot be stat-ed
        /// for a reason other than being gone (EACCES: it can be listed but not searched), is a
        /// failure of the folder's: what it holds is not known, which is not the same as empty.
        /// `leavingOutFiles`: only its subfolders are listed (`DirectoryWalker.leavingOutFiles`).
        private mutating func list(_ folder: OpenFolder, at path: PathBytes, prefix folderPrefix: PathBytes, bounded: Bool,
                                   unchanged: Bool = false, leavingOutFiles: Bool = false) -> [FolderListing.Child] {
            let statFiles = statFiles && !unchanged
            let unstatedInfo = unchanged ? FileInfo.unchangedFolder : FileInfo.unstated
            let prefix = bounded ? folderPrefix : nil
            var children: [FolderListing.Child] = []
            var failure: FileSystemError?
            while true {
                errno = 0
                guard let entry = readdir(folder.stream) else {
                    if errno != 0, failure == nil { failure = FileSystemError(path: path, errno: errno, operation: "read folder") }
                    break
                }
                let name = DirectoryWalker.name(of: entry)
                guard let first = name.first else { continue }
                if first == UInt8(ascii: ".") {
                    // Only a hidden name is looked at, by its bytes: the visible entries, the
                    // walk's hot path, cost nothing more.
                    if sweeps, LeftoverTemporaries.isTemporaryName(name) { sweep(entry, named: name, in: folder, at: folderPrefix) }
                    continue
                }
                let type = entry.pointee.d_type
                if type == UInt8(DT_DIR) {
                    if ignoring.skips(name, in: folderPrefix, isFolder: true) { continue }
                    if let prefix, let range, !range.reaches(folder: prefix.appending(name).folderPrefix) { continue }
                    children.append(FolderListing.Child(name: name, info: nil))
                    continue
                }
                guard type == UInt8(DT_REG) || type == UInt8(DT_UNKNOWN) else { continue }
                if leavingOutFiles, type == UInt8(DT_REG) { continue }
                if !statFiles, type == UInt8(DT_REG) {
                    if ignoring.skips(name, in: folderPrefix, isFolder: false) { continue }
                    children.append(FolderListing.Child(name: name, info: unstatedInfo))
                    continue
                }
                var childStat = stat()
                let rc = DirectoryWalker.withName(of: entry) { fstatat(folder.descriptor, $0, &childStat, AT_SYMLINK_NOFOLLOW) }
                guard rc == 0 else {
                    // ENOENT: gone between readdir and stat.
                    if errno != ENOENT, failure == nil {
                        failure = FileSystemError(path: path, errno: errno, operation: "stat a file in")
                    }
                    continue
                }
                let info = FileInfo(childStat)
                if info.kind == .regular || info.kind == .directory,
                   ignoring.skips(name, in: folderPrefix, isFolder: info.kind == .directory) {
                    continue
                }
                switch info.kind {
                case .regular where leavingOutFiles: break
                case .regular:
                    // Kept even outside the range: the listing is also where a file's siblings
                    // (its sidecar) are looked up. The walk leaves it out when it comes to it.
                    children.append(FolderListing.Child(name: name, info: info))
                case .directory:
                    if let prefix, let range, !range.reaches(folder: prefix.appending(name).folderPrefix) { continue }
                    children.append(FolderListing.Child(name: name, info: nil))
                case .symlink, .other: break
                }
            }
            if let failure { pendingFailures.append(failure) }
            return sorted ? FolderListing.Child.inPathOrder(children) : children
        }
    }

    /// A listed folder: its descriptor (subfolders are opened from it), its entries and how far the walk is.
    private struct Frame {
        let folder: OpenFolder
        let listing: FolderListing
        /// Whether its entries are checked against the range (it straddles a bound).
        let bounded: Bool
        var next = 0
    }

    /// A listed folder still open: its subfolders are opened from its descriptor, and it is
    /// closed when the walk leaves it, so one folder per level of the tree is open.
    private final class OpenFolder {
        let stream: OpaquePointer
        var descriptor: Int32 { dirfd(stream) }

        init(_ stream: OpaquePointer) { self.stream = stream }

        deinit { closedir(stream) }
    }

    /// Calls `body` with the entry's name as a C string: d_name is NUL-terminated already, so no
    /// copy is made for a system call on it. Nil where it has no address.
    private static func withName<T>(of entry: UnsafeMutablePointer<dirent>, _ body: (UnsafePointer<CChar>) -> T) -> T? {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            raw.baseAddress.map { body($0.assumingMemoryBound(to: CChar.self)) }
        }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let length = raw.firstIndex(of: 0) ?? raw.count
            return Array(raw[..<length])
        }
    }
}

/// A listed folder's visible files (with their status) and subfolders, in path order.
public final class FolderListing: Sendable {
    /// A file (with its status) or a subfolder (without).
    struct Child: Sendable {
        var name: [UInt8]
        var info: FileInfo?

        /// `children` in path order. Their positions are sorted rather than the children
        /// themselves, which are 64 bytes each with a name to retain on every move; and each is
        /// compared by `sortKey` first, so most comparisons touch (and retain) no name at all
        /// (the names' comparison was 7% of a restart's CPU).
        static func inPathOrder(_ children: [Child]) -> [Child] {
            guard children.count > 1 else { return children }
            let keys = children.map(sortKey)
            var order = Array(children.indices)
            order.sort { left, right in
                if keys[left] != keys[right] { return keys[left] < keys[right] }
                return precedes(children[left], children[right])
            }
            return order.map { children[$0] }
        }

        /// The child's first 16 bytes as one number, followed by what comes after its name in
        /// path order when it is shorter ("/" for a folder, nothing for a file: no name holds
        /// a NUL). Two keys differ only as `precedes` orders their children; equal keys are two
        /// names of 16 bytes or more that start alike, which `precedes` then orders.
        static func sortKey(_ child: Child) -> UInt128 {
            var key: UInt128 = 0
            var shift = 120
            for byte in child.name.prefix(16) {
                key |= UInt128(byte) << shift
                shift -= 8
            }
            if child.name.count < 16, child.info == nil { key |= UInt128(UInt8(ascii: "/")) << shift }
            return key
        }

        /// Path order: a folder's own files come where "name/" sorts, so "b.jpg" < "b/x.jpg" < "b0.jpg".
        static func precedes(_ lhs: Child, _ rhs: Child) -> Bool {
            let count = min(lhs.name.count, rhs.name.count)
            let order = PathBytes.prefixOrder(lhs.name, rhs.name, count: count)
            if order != 0 { return order < 0 }
            // One name starts the other (names in a folder differ): the shorter one ends, or
            // goes on with the "/" its folder's paths have next.
            func after(_ child: Child) -> Int { child.info == nil ? Int(UInt8(ascii: "/")) : -1 }
            let left = lhs.name.count == count ? after(lhs) : Int(lhs.name[count])
            let right = rhs.name.count == count ? after(rhs) : Int(rhs.name[count])
            return left < right
        }
    }

    /// The folder's path with a trailing "/", ready for a child's name.
    let prefix: PathBytes
    let children: [Child]

    init(prefix: PathBytes, children: [Child]) {
        self.prefix = prefix
        self.children = children
    }

    /// The status of the regular file `name` in this folder, as listed; nil when there is none.
    public func file(named name: [UInt8]) -> FileInfo? {
        let key = Child(name: name, info: .unstated)
        var low = 0, high = children.count
        while low < high {
            let middle = (low + high) / 2
            if Child.precedes(children[middle], key) { low = middle + 1 } else { high = middle }
        }
        guard low < children.count, children[low].name == name else { return nil }
        return children[low].info
    }

    /// How many regular files' names satisfy `predicate`.
    public func countFiles(where predicate: ([UInt8]) -> Bool) -> Int {
        children.reduce(0) { $0 + ($1.info != nil && predicate($1.name) ? 1 : 0) }
    }

    /// Whether a regular file's name satisfies `predicate`.
    public func containsFile(where predicate: ([UInt8]) -> Bool) -> Bool {
        children.contains { $0.info != nil && predicate($0.name) }
    }

    /// The path of the entry `name` in this folder.
    func path(of name: [UInt8]) -> PathBytes {
        prefix.appending(name)
    }
}

extension FileInfo {
    /// A regular file known by name only (a count, or a walk that does not stat files).
    public static let unstated = FileInfo(kind: .regular, device: 0, inode: 0, size: 0, mtimeNs: 0)
    /// A regular file listed by name in a folder that did not change since the walk's caller
    /// last listed it: what the index knows of it stands (`DirectoryWalker.folderUnchanged`).
    public static let unchangedFolder = FileInfo(kind: .regular, device: 0, inode: 0, size: -1, mtimeNs: -1)
}

/// A span of paths in path order, from `low` (included) to `high` (excluded); nil: unbounded.
public struct PathRange: Sendable, Equatable {
    public var low: PathBytes?
    public var high: PathBytes?

    /// Creates a range.
    public init(low: PathBytes?, high: PathBytes?) {
        self.low = low
        self.high = high
    }

    /// Whether `path` lies in the range.
    public func contains(_ path: PathBytes) -> Bool {
        (low.map { path >= $0 } ?? true) && (high.map { path < $0 } ?? true)
    }

    /// Whether some path beginning with `prefix` (a folder's, ending in "/") lies in the range:
    /// such paths run from `prefix` itself up to, not including, the first one not beginning with it.
    func reaches(folder prefix: PathBytes) -> Bool {
        (high.map { prefix < $0 } ?? true) && (low.map { $0 <= prefix || $0.bytes.starts(with: prefix.bytes) } ?? true)
    }

    /// Whether every path beginning with `prefix` lies in the range.
    func holdsEverything(under prefix: PathBytes) -> Bool {
        (low.map { $0 <= prefix } ?? true) && (high.map { prefix < $0 && !$0.bytes.starts(with: prefix.bytes) } ?? true)
    }
}
