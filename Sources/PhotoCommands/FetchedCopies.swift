#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem

/// Where `photoctl --host … open` keeps the originals it fetched to show: this user's own 0700
/// folder under $XDG_RUNTIME_DIR (else the temporary folder), one 0700 folder in it per copy, so
/// two photos of one name never meet, and each removed a day after it was made.
struct FetchedCopies {
    /// How long a copy is kept: a viewer may still be showing it, or a person looking at it.
    static let keptSeconds = 24 * 60 * 60

    /// The folder holding the copies' folders.
    let root: String

    /// `$XDG_RUNTIME_DIR/photoctl-open` (a folder of this user's alone, emptied at logout), else
    /// `$TMPDIR/photoctl-open-UID` (`/tmp` without TMPDIR), the uid so users of /tmp do not meet.
    init(environment: [String: String]) {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            self.root = runtime + "/photoctl-open"
        } else {
            let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
            self.root = temporary + "/photoctl-open-\(getuid())"
        }
    }

    /// Makes the root when missing and checks it is this user's own folder, closed to others:
    /// in /tmp another user could have made it first, or put a link there.
    func prepare() throws(FetchedCopyError) {
        if mkdir(root, 0o700) != 0, errno != EEXIST {
            throw FetchedCopyError("cannot make \(root): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(root, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
            throw FetchedCopyError("\(root) is not a folder of yours; remove it, or set TMPDIR to another folder")
        }
        if status.st_mode & 0o077 != 0, chmod(root, 0o700) != 0 {
            throw FetchedCopyError("cannot close \(root) to other users: \(String(cString: strerror(errno)))")
        }
    }

    /// A new, empty folder (0700) for one copy: its exact path.
    func makeFolder() throws(FetchedCopyError) -> [UInt8] {
        var template = Array((root + "/copy-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw FetchedCopyError("cannot make a folder in \(root): \(String(cString: strerror(errno)))")
        }
        return template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }

    /// Removes the copies made more than a day before `now` (seconds since 1970). One that
    /// cannot be removed is left for the next run: the copy asked for matters more.
    func removeStale(now: Int) {
        guard case .success(let folders) = FileSystem.subdirectories(of: PathBytes(root)) else { return }
        for folder in folders {
            var status = stat()
            guard lstat(folder.cString, &status) == 0, status.st_uid == getuid(),
                  Int(status.st_mtim.tv_sec) < now - Self.keptSeconds else { continue }
            Self.remove(folder)
        }
    }

    /// Removes a copy's folder: the files in it (a copy, or one left unfinished), then the folder.
    static func remove(_ folder: PathBytes) {
        let descriptor = open(folder.cString, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] {
                names.append(name)
            }
        }
        for name in names {
            _ = unlinkat(dirfd(stream), name.map { CChar(bitPattern: $0) } + [0], 0)
        }
        closedir(stream)
        _ = rmdir(folder.cString)
    }
}

/// The folder for fetched copies cannot be used.
struct FetchedCopyError: Error, CustomStringConvertible {
    let description: String

    /// An error saying `description`.
    init(_ description: String) {
        self.description = description
    }
}
