#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import SafeText
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What photoctl adds to `NewFile`: its messages, image data, and an original's times.
extension NewFile {
    /// Starts `path` (bytes as the user typed them); an existing file is refused unless `replacing`.
    static func create(at path: [UInt8], replacing: Bool) throws(NewFileError) -> NewFile {
        try create(at: PathBytes(path), refuseExisting: !replacing)
    }

    /// Appends `data`.
    func write(_ data: Data) throws(NewFileError) {
        let result: Result<Void, NewFileError> = data.withUnsafeBytes { bytes in Result { () throws(NewFileError) in try write(bytes) } }
        try result.get()
    }

    /// Gives the file the access and modification times of the file open as `source`, to the
    /// nanosecond (the kernel's own, not a rounded text form).
    func copyTimes(from source: Int32) throws(NewFileError) {
        var status = stat()
        guard fstat(source, &status) == 0 else { throw .failed(path, "cannot read the original's times", errno) }
        try setTimes([status.st_atim, status.st_mtim])
    }

    /// Gives the file `modified` ("2024-03-01T12:00:00Z", as photod writes it) as its access and
    /// modification times: for a copy read from a pipe or a sealed copy, whose own times are not
    /// the original's.
    func copyTimes(modified: String) throws(NewFileError) {
        guard let seconds = UTCSeconds.parse(modified) else {
            throw .failed(path, "photod gave no modification time it can read (\(modified))", EINVAL)
        }
        let time = timespec(tv_sec: seconds, tv_nsec: 0)
        try setTimes([time, time])
    }

    /// Puts the complete file in place, replacing what is there only when `replacing`.
    func commit(replacing: Bool) throws(NewFileError) {
        if replacing { try commitReplacing() } else { try commit() }
    }
}

extension NewFileError {
    /// The message photoctl prints, the path escaped (`SafeText`): print it with `Output.escapedError`.
    var shown: String {
        message(escape: { SafeText.escaped(bytes: $0.bytes) }, existsHint: "; add --force to replace it")
    }
}
