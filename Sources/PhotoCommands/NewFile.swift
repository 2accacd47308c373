#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SafeText
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A file photoctl creates (an image, an exported original): written under a temporary name in
/// the same folder and given its real name only when complete, so a half-written file never
/// appears under it, and an existing file is replaced only when the user said so. Paths are
/// bytes: a name need not be UTF-8.
final class NewFile {
    /// Where the file ends up.
    let path: [UInt8]
    private let temporary: [CChar]
    private let descriptor: Int32
    private let replacing: Bool
    private var finished = false

    private init(path: [UInt8], temporary: [CChar], descriptor: Int32, replacing: Bool) {
        self.path = path
        self.temporary = temporary
        self.descriptor = descriptor
        self.replacing = replacing
    }

    deinit {
        if !finished { discard() }
    }

    /// Starts `path`; unless `replacing`, refuses at once when something is there already (the
    /// final `commit` checks again, atomically).
    static func create(at path: [UInt8], replacing: Bool) throws(NewFileError) -> NewFile {
        var status = stat()
        if !replacing, lstat(PathArgument.cString(path), &status) == 0 { throw .exists(path) }
        let slash = UInt8(ascii: "/")
        let folder = path.lastIndex(of: slash).map { $0 == 0 ? [slash] : Array(path[..<$0]) } ?? [UInt8(ascii: ".")]
        for _ in 0..<8 {
            // A short name of fixed length, not one built from the final name: that one may
            // already be NAME_MAX (255 bytes) long.
            let temporary = PathArgument.cString(folder + Array("/.photoctl-".utf8) + randomSuffix())
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor >= 0 {
                return NewFile(path: path, temporary: temporary, descriptor: descriptor, replacing: replacing)
            }
            if errno != EEXIST { throw .failed(path, "cannot create a file in its folder", errno) }
        }
        throw .failed(path, "cannot find a free temporary name in its folder", EEXIST)
    }

    /// 16 hex digits, so two photoctl runs writing into one folder pick different names.
    private static func randomSuffix() -> [UInt8] {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return Array((String(repeating: "0", count: 16 - digits.count) + digits).utf8)
    }

    /// Appends `data`.
    func write(_ data: Data) throws(NewFileError) {
        let result: Result<Void, NewFileError> = data.withUnsafeBytes { write($0) }
        try result.get()
    }

    /// Appends everything `source` has left to read, a bounded buffer at a time, reading only
    /// forward (a pipe works as well as a file); how many bytes that was.
    @discardableResult
    func copy(from source: Int32) throws(NewFileError) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return total }
            total += max(0, count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(path, "cannot read the original", errno)
            }
            let result: Result<Void, NewFileError> = buffer.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            try result.get()
        }
    }

    /// Gives the file the access and modification times of the file open as `source`, to the
    /// nanosecond (the kernel's own, not a rounded text form).
    func copyTimes(from source: Int32) throws(NewFileError) {
        var status = stat()
        guard fstat(source, &status) == 0 else { throw .failed(path, "cannot read the original's times", errno) }
        let times = [status.st_atim, status.st_mtim]
        guard futimens(descriptor, times) == 0 else { throw .failed(path, "cannot set its modification time", errno) }
    }

    /// Gives the file `modified` ("2024-03-01T12:00:00Z", as photod writes it) as its access and
    /// modification times: for a copy read from a pipe or a sealed copy, whose own times are not
    /// the original's.
    func copyTimes(modified: String) throws(NewFileError) {
        guard let seconds = UTCSeconds.parse(modified) else {
            throw .failed(path, "photod gave no modification time it can read (\(modified))", EINVAL)
        }
        let time = timespec(tv_sec: seconds, tv_nsec: 0)
        guard futimens(descriptor, [time, time]) == 0 else { throw .failed(path, "cannot set its modification time", errno) }
    }

    /// Puts the complete file in place: replacing what is there when allowed, else only when
    /// nothing is (a hard link fails rather than replace; where links are not supported, the
    /// name is claimed with O_EXCL first).
    func commit() throws(NewFileError) {
        finished = true
        defer { _ = unlink(temporary) }
        let synced = fsync(descriptor) == 0 ? 0 : errno
        let closed = close(descriptor) == 0 ? 0 : errno
        if synced != 0 || closed != 0 { throw .failed(path, "cannot write it", synced != 0 ? synced : closed) }
        let target = PathArgument.cString(path)
        if replacing {
            guard rename(temporary, target) == 0 else { throw .failed(path, "cannot put it in place", errno) }
            return
        }
        if link(temporary, target) == 0 { return }
        if errno == EEXIST { throw .exists(path) }
        let claim = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard claim >= 0 else { throw errno == EEXIST ? .exists(path) : .failed(path, "cannot create it", errno) }
        close(claim)
        guard rename(temporary, target) == 0 else { throw .failed(path, "cannot put it in place", errno) }
    }

    /// Drops the temporary file; the real name is untouched.
    func discard() {
        finished = true
        close(descriptor)
        unlink(temporary)
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Result<Void, NewFileError> {
        let code = DescriptorWrite.all(bytes, to: descriptor)
        return code == 0 ? .success(()) : .failure(.failed(path, "cannot write it", code))
    }
}

/// Why photoctl did not create a file.
enum NewFileError: Error, CustomStringConvertible {
    /// Something is already there and the user did not say `--force`.
    case exists([UInt8])
    /// A system call failed with this errno.
    case failed([UInt8], String, Int32)

    /// The message, with the path escaped (`SafeText`): print it with `Output.escapedError`.
    var description: String {
        switch self {
        case .exists(let path):
            "\(SafeText.escaped(bytes: path)) already exists; add --force to replace it"
        case .failed(let path, let what, let code):
            "\(SafeText.escaped(bytes: path)): \(what) (\(Errno(rawValue: code)))"
        }
    }
}
