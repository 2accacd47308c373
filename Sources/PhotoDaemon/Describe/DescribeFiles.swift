import FileSystem
import Glibc
import Posix

/// The file steps the description writer takes for a photo and for a sidecar alike: open without
/// following links, check what may be written, read whole, and stage the new bytes beside the
/// original with its owner, mode and extended attributes.
enum DescribeFiles {
    /// Opens `path` for reading through real folders only; a symlink, FIFO or device is refused
    /// from the opened descriptor's own `fstat`, so nothing swapped in after a check is followed.
    static func open(_ path: PathBytes, opener: SafeOpener) throws(DescriptionWriteError) -> OpenFile {
        switch opener.openRegularFile(path) {
        case .success(let file):
            return file
        case .failure(let error) where error.errno == ELOOP || error.errno == EINVAL:
            throw .notRegularFile
        case .failure(let error) where error.errno == ENOENT || error.errno == ENOTDIR:
            throw .assetChanged
        case .failure(let error):
            throw .failed(error.description)
        }
    }

    /// The ownership of an open file; `what` names it if `fstat` fails.
    static func ownership(of descriptor: Int32, _ what: String) throws(DescriptionWriteError) -> FileOwnership {
        guard let ownership = FileOwnership(descriptor: descriptor) else {
            throw .failed("cannot read the mode of \(what) (\(SystemCallError("fstat", errno: errno)))")
        }
        return ownership
    }

    /// Refuses unless this process may write into `path`'s folder (a new name, a rename there).
    static func requireWritableFolder(of path: PathBytes, opener: SafeOpener, caller: FileOwnership.Caller) throws(DescriptionWriteError) {
        let folder = path.parent ?? .root
        let descriptor: Int32
        switch opener.openFolder(folder) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw .failed(error.description)
        }
        defer { close(descriptor) }
        guard try ownership(of: descriptor, "the folder").allowsWriting(by: caller) else { throw .readOnly(what: "its folder") }
    }

    /// All `info.size` bytes of the open file; `assetChanged` when there are more or fewer (it is
    /// being written).
    static func readAll(_ descriptor: Int32, _ info: FileInfo) throws(DescriptionWriteError) -> [UInt8] {
        let size = Int(info.size)
        // One byte more than expected shows a file that grew.
        switch FileSystem.readFromStart(descriptor, upTo: size + 1) {
        case .success(let bytes) where bytes.count == size: return bytes
        case .success: throw .assetChanged
        case .failure(let error): throw .failed("cannot read the file (\(SystemCallError("pread", errno: error.errno)))")
        }
    }

    /// A temporary file beside `path` holding `bytes`, with `ownership` and (when `attributesOf` is
    /// given) every extended attribute of that open file; not yet in place. The owner and mode come
    /// before the bytes, so a private photo's bytes are never in a file others may read.
    static func stage(
        _ bytes: [UInt8], for path: PathBytes, ownership: FileOwnership, attributesOf original: Int32?
    ) throws(DescriptionWriteError) -> NewFile {
        let file: NewFile
        do throws(NewFileError) {
            file = try NewFile.create(at: path, refuseExisting: false)
        } catch {
            if case .failed(_, _, let code) = error, code == EACCES || code == EPERM || code == EROFS {
                throw .readOnly(what: code == EROFS ? "its file system" : "its folder")
            }
            throw .failed(error.message(escape: \.description))
        }
        do throws(SystemCallError) {
            try ownership.apply(to: file.fileDescriptor)
        } catch {
            file.discard()
            throw .attributesNotKept("owner, group or mode (\(error))")
        }
        if let original, let failure = ExtendedAttributes.copy(from: original, to: file.fileDescriptor) {
            file.discard()
            let name = String(decoding: failure.name, as: UTF8.self)
            throw .attributesNotKept("extended attribute \(name.isEmpty ? "list" : name) (\(failure.error))")
        }
        do throws(NewFileError) {
            try file.write(bytes)
        } catch {
            file.discard()
            throw .failed(error.message(escape: \.description))
        }
        // A write by an unprivileged process clears set-user-id and set-group-id.
        guard FileOwnership(descriptor: file.fileDescriptor) == ownership else {
            file.discard()
            throw .attributesNotKept("mode (set-id bits cleared by the write)")
        }
        return file
    }

    /// Refuses unless `path` still names the very file `info` describes, with the same bytes (size
    /// and modification time): checked last before a rename, after the new file is staged.
    static func requireUnchanged(_ path: PathBytes, _ info: FileInfo, opener: SafeOpener) throws(DescriptionWriteError) {
        guard case .success(let now) = opener.linkStatus(path), now.kind == .regular, now.device == info.device,
              now.inode == info.inode, now.size == info.size, now.mtimeNs == info.mtimeNs else { throw .assetChanged }
    }

    /// Refuses unless nothing is at `path` (a sidecar about to be created).
    static func requireAbsent(_ path: PathBytes, opener: SafeOpener) throws(DescriptionWriteError) {
        switch opener.linkStatus(path) {
        case .success(let info): throw info.kind == .regular ? .assetChanged : .notRegularFile
        case .failure(let error) where error.errno == ENOENT: return
        case .failure(let error): throw .failed(error.description)
        }
    }
}
