import Glibc
import Posix
import SystemPackage

/// A file made whole before it has its name: written under a temporary name in its folder,
/// synced, then put in place, so a crash or a failure leaves either nothing or the complete
/// file under the name, never part of it. Unless told to replace, it never overwrites a file:
/// the name is taken atomically (a hard link, which fails on an existing name), or, with
/// `numbered`, the next free "NAME (2).EXT" is.
///
/// photoctl's exported originals and images and photod's imports are made with it.
public final class NewFile {
    /// How every temporary file's name begins: hidden, so the walk and the watcher pass it over,
    /// and photod's own, so one a crash left behind is known as such (`LeftoverTemporaries`).
    public static let temporaryPrefix: [UInt8] = Array(".photod-new-".utf8)

    /// Where the file is meant to go; `commit` says where it went.
    public let path: PathBytes
    private let temporary: PathBytes
    private let descriptor: Int32
    private var finished = false

    private init(path: PathBytes, temporary: PathBytes, descriptor: Int32) {
        self.path = path
        self.temporary = temporary
        self.descriptor = descriptor
    }

    deinit {
        if !finished { discard() }
    }

    /// Starts a file meant for `path`; when `refuseExisting`, refuses at once when something is
    /// there already (committing checks again, atomically).
    public static func create(at path: PathBytes, refuseExisting: Bool) throws(NewFileError) -> NewFile {
        var status = stat()
        if refuseExisting, lstat(path.cString, &status) == 0 { throw .exists(path) }
        let folder = path.parent ?? PathBytes(".")
        for _ in 0..<8 {
            // A short name of fixed length, not one built from the final name: that one may
            // already be NAME_MAX (255 bytes) long. Hidden, so photod's watcher passes it over.
            let temporary = folder.appending(temporaryPrefix + randomSuffix())
            let descriptor = open(temporary.cString, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor >= 0 { return NewFile(path: path, temporary: temporary, descriptor: descriptor) }
            if errno != EEXIST { throw .failed(path, "cannot create a file in its folder", errno) }
        }
        throw .failed(path, "cannot find a free temporary name in its folder", EEXIST)
    }

    /// 16 hex digits, so two writers in one folder pick different names.
    private static func randomSuffix() -> [UInt8] {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return Array((String(repeating: "0", count: 16 - digits.count) + digits).utf8)
    }

    /// The open temporary file, read and write, for calls this type does not make (`futimens`,
    /// reading back what was written).
    public var fileDescriptor: Int32 { descriptor }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(NewFileError) {
        let code = DescriptorWrite.all(bytes, to: descriptor)
        if code != 0 { throw .failed(path, "cannot write it", code) }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(NewFileError) {
        let result: Result<Void, NewFileError> = bytes.withUnsafeBytes { buffer in Result { () throws(NewFileError) in try write(buffer) } }
        try result.get()
    }

    /// Appends everything `source` has left to read, a bounded buffer at a time and only
    /// forward (a pipe works as well as a file); how many bytes that was. Past `limit` bytes it
    /// stops and throws `tooLarge`, having read at most one buffer more than the limit.
    @discardableResult
    public func copy(from source: Int32, limit: Int = .max) throws(NewFileError) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return total }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(path, "cannot read what is to be written", errno)
            }
            total += count
            if total > limit { throw .tooLarge(path, limit: limit) }
            let result: Result<Void, NewFileError> = buffer.withUnsafeBytes { bytes in
                Result { () throws(NewFileError) in try write(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
            }
            try result.get()
        }
    }

    /// Everything written so far (`size` bytes), read back from the start, for an edit of the
    /// whole before it is committed.
    public func readBack(size: Int) throws(NewFileError) -> [UInt8] {
        switch FileSystem.readFromStart(descriptor, upTo: size) {
        case .success(let bytes) where bytes.count == size: return bytes
        case .success: throw .failed(path, "cannot read back what was written", EIO)
        case .failure(let error): throw .failed(path, "cannot read back what was written", error.errno)
        }
    }

    /// Gives the file the access and modification times `times` (atime, mtime).
    public func setTimes(_ times: [timespec]) throws(NewFileError) {
        guard futimens(descriptor, times) == 0 else { throw .failed(path, "cannot set its modification time", errno) }
    }

    /// Syncs the file and puts it at `path`, replacing whatever is there.
    public func commitReplacing() throws(NewFileError) {
        try finish()
        defer { _ = unlink(temporary.cString) }
        guard rename(temporary.cString, path.cString) == 0 else { throw .failed(path, "cannot put it in place", errno) }
        FileSystem.syncFolder(of: path)
    }

    /// Syncs the file and puts it at `path` only if nothing is there (`exists` otherwise).
    public func commit() throws(NewFileError) {
        try finish()
        defer { _ = unlink(temporary.cString) }
        try place(at: path)
        FileSystem.syncFolder(of: path)
    }

    /// Syncs the file and puts it at `target` (`path` when nil) or, when that is taken, at the
    /// first free "NAME (2).EXT", "NAME (3).EXT", … up to `attempts` names; where it went. A
    /// `target` in another folder must be on the same file system as `path`'s.
    public func commitNumbered(at target: PathBytes? = nil, attempts: Int = 1000) throws(NewFileError) -> PathBytes {
        let target = target ?? path
        try finish()
        defer { _ = unlink(temporary.cString) }
        for number in 1...max(1, attempts) {
            let candidate = number == 1 ? target : Self.numbered(target, number)
            do throws(NewFileError) {
                try place(at: candidate)
                FileSystem.syncFolder(of: candidate)
                return candidate
            } catch .exists {
                continue
            }
        }
        throw .failed(target, "\(attempts) names like it are taken", EEXIST)
    }

    /// "NAME (N).EXT" for "NAME.EXT" (and "NAME (N)" for a name without an extension).
    public static func numbered(_ path: PathBytes, _ number: Int) -> PathBytes {
        let mark = Array(" (\(number))".utf8)
        guard let stem = path.withoutExtension, let ext = path.nameExtension else { return path.appendingToName(mark) }
        return stem.appendingToName(mark + [UInt8(ascii: ".")] + Array(ext))
    }

    /// Drops the temporary file; nothing is put in place.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlink(temporary.cString)
    }

    private func finish() throws(NewFileError) {
        guard !finished else { throw .failed(path, "it was already finished", EINVAL) }
        finished = true
        let synced = fsync(descriptor) == 0 ? 0 : errno
        let closed = close(descriptor) == 0 ? 0 : errno
        if synced != 0 || closed != 0 {
            unlink(temporary.cString)
            throw .failed(path, "cannot write it", synced != 0 ? synced : closed)
        }
    }

    /// Links the finished temporary file at `target` unless something is there; where hard
    /// links are not supported (FAT), claims the name with O_EXCL first, then renames over it.
    private func place(at target: PathBytes) throws(NewFileError) {
        if link(temporary.cString, target.cString) == 0 { return }
        if errno == EEXIST { throw .exists(target) }
        let claim = open(target.cString, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard claim >= 0 else { throw errno == EEXIST ? .exists(target) : .failed(target, "cannot create it", errno) }
        close(claim)
        guard rename(temporary.cString, target.cString) == 0 else { throw .failed(target, "cannot put it in place", errno) }
    }

}

/// Why a `NewFile` was not made. Its path comes from users and apps: `message` escapes it.
public enum NewFileError: Error, Sendable {
    /// Something is already at the path.
    case exists(PathBytes)
    /// More bytes than the limit came to be written.
    case tooLarge(PathBytes, limit: Int)
    /// A system call failed with this errno.
    case failed(PathBytes, String, Int32)

    /// The path the error is about.
    public var path: PathBytes {
        switch self {
        case .exists(let path), .tooLarge(let path, _), .failed(let path, _, _): path
        }
    }

    /// The message, with the path as `escape` shows it; `existsHint` follows "already exists".
    public func message(escape: (PathBytes) -> String, existsHint: String = "") -> String {
        switch self {
        case .exists(let path):
            "\(escape(path)) already exists" + existsHint
        case .tooLarge(let path, let limit):
            "\(escape(path)): more than \(limit) bytes"
        case .failed(let path, let what, let code):
            "\(escape(path)): \(what) (\(Errno(rawValue: code)))"
        }
    }
}
