import FileSystem
import Metadata
import Posix
import Store

/// Writes a photo's description to disk (issue 28's SetDescription, file side): into a JPEG itself,
/// or into the XMP sidecar of any other format; whole or not at all.
///
/// A JPEG (by its bytes, not its name) is read whole, edited by `DescriptionEdit.jpeg`, written to
/// a hidden temporary file beside it with the original's owner, group, mode and extended attributes,
/// synced, and renamed over it; then the folder is synced. A crash at any moment leaves the old
/// file or the new one under the name, never part of either (a hidden `.photod-new-*` may be left:
/// the watcher passes it over, a later library walk removes it once it is old). The replaced photo has a new inode and a new mtime:
/// the index follows paths, and the new stamp is returned for it. Its atime and mtime are not kept:
/// the mtime is how every reader, photod's index included, sees that the file changed.
///
/// Every other format gets its sidecar written the same way (the one photod reads, `Sidecar.find`,
/// else a new `NAME.EXT.xmp`); the photo is not touched. A JPEG the byte-level writer refuses is
/// refused, with no sidecar instead: DESIGN.md gives sidecars to formats that cannot be written,
/// and with the default source order the JPEG's own EXIF text would still win over a sidecar.
///
/// Nothing is written unless the file on disk is the one indexed (`expected`), and the file is
/// checked again just before the rename: a program writing it meanwhile makes this give up
/// (`assetChanged`). The window between that check and the rename is a few system calls wide.
struct DescriptionWriter: Sendable {
    /// What a write did, and the photo's stamp after it, for the index.
    struct Outcome: Sendable, Equatable {
        /// Which file was written.
        enum Written: Sendable, Equatable {
            /// The photo itself was replaced.
            case inPlace(PathBytes)
            /// The photo's sidecar at this path was created or replaced.
            case sidecar(PathBytes)
            /// Nothing: no sidecar and no description to set, or the file already said so.
            case nothing
        }

        /// Which file was written, if any.
        let written: Written
        /// The photo's stamp now, for the index: for a photo whose description goes to a sidecar,
        /// `sidecar` is the signature of the sidecar in effect now (0: none); for a JPEG, `expected`'s.
        let stamp: FileStamp
    }

    /// The reader photod indexes with (its description sources and grouping rules): a write whose
    /// result it would not show (an embedded caption ahead of the sidecar) is refused.
    let reader: AssetReader
    /// Who writes: decides which permission bits apply (see `FileOwnership.allowsWriting`).
    var caller: FileOwnership.Caller = .current
    /// Called with the path about to be replaced, after the new file is staged and before the last
    /// check and the rename: tests change the file there, or end the process, to show what stays.
    var beforeCommit: @Sendable (PathBytes) -> Void = { _ in }

    /// Sets (nil: clears) the description of the photo at `path`, which the index holds with the
    /// stamp `expected` (its `sidecar` is not compared: the sidecar is checked when it is written).
    func write(path: PathBytes, expected: FileStamp, description: String?) throws(DescriptionWriteError) -> Outcome {
        let opener = SafeOpener()
        let photo = try DescribeFiles.open(path, opener: opener)
        guard FileStamp(photo.info).isSameFile(as: expected) else { throw .assetChanged }
        let metadata = MetadataReader.read(fileDescriptor: photo.fileDescriptor, fileSize: Int(photo.info.size))
        if metadata.format == .jpeg {
            return try writeJPEG(path, photo, expected: expected, description: description, opener: opener)
        }
        return try writeSidecar(path, photo, embedded: metadata.descriptions, description: description, opener: opener)
    }

    private func writeJPEG(
        _ path: PathBytes, _ photo: borrowing OpenFile, expected: FileStamp, description: String?, opener: SafeOpener
    ) throws(DescriptionWriteError) -> Outcome {
        let info = photo.info
        guard info.size <= DescriptionEdit.maxJPEGBytes else { throw .tooLarge(limit: DescriptionEdit.maxJPEGBytes) }
        guard info.linkCount == 1 else { throw .hardLinked(links: info.linkCount) }
        let ownership = try DescribeFiles.ownership(of: photo.fileDescriptor, "the photo")
        guard ownership.allowsWriting(by: caller) else { throw .readOnly(what: "the photo") }
        try DescribeFiles.requireWritableFolder(of: path, opener: opener, caller: caller)
        let bytes = try DescribeFiles.readAll(photo.fileDescriptor, info)
        let edited: [UInt8]
        do throws(DescriptionEditError) {
            edited = try DescriptionEdit.jpeg(bytes, description: description)
        } catch {
            throw .refused(error)
        }
        // A sidecar ahead of the JPEG's own text in the configured order would still be shown.
        let sidecar = Sidecar.find(for: path, opener: opener).flatMap { Self.sidecarText($0.path, opener: opener) }
        try requireShown(description, embedded: MetadataReader.read(bytes: edited).descriptions, sidecarText: sidecar)
        var stamp = FileStamp(info)
        stamp.sidecar = expected.sidecar
        if edited == bytes { return Outcome(written: .nothing, stamp: stamp) }
        let file = try DescribeFiles.stage(edited, for: path, ownership: ownership, attributesOf: photo.fileDescriptor)
        beforeCommit(path)
        try DescribeFiles.requireUnchanged(path, info, opener: opener)
        try commit(file, replacing: true)
        guard case .success(let now) = opener.linkStatus(path) else { throw .failed("cannot stat the photo after writing it") }
        stamp = FileStamp(now)
        stamp.sidecar = expected.sidecar
        return Outcome(written: .inPlace(path), stamp: stamp)
    }

    /// Refuses unless the reader, given the photo's embedded sources and sidecar as they will be,
    /// shows `description` (nothing, when clearing).
    func requireShown(_ description: String?, embedded: DescriptionCandidates, sidecarText: [UInt8]?) throws(DescriptionWriteError) {
        let sidecar = reader.sources.contains(.sidecar) ? sidecarText : nil
        let shown = reader.chosenDescription(embedded, sidecarText: sidecar)
        guard shown.text != description.map({ DescriptionText.decode(Array($0.utf8)) }) else { return }
        throw .notShown(instead: shown.source?.rawValue)
    }

    /// The description in the sidecar at `path`, read through real folders only.
    static func sidecarText(_ path: PathBytes, opener: SafeOpener) -> [UInt8]? {
        guard case .success(let file) = opener.openRegularFile(path) else { return nil }
        return XMPPacket.description(fileDescriptor: file.fileDescriptor, fileSize: Int(file.info.size))
    }

    /// Puts a staged file in place: over the original, or at a name nothing holds (`assetChanged`
    /// when something took it meanwhile).
    func commit(_ file: NewFile, replacing: Bool) throws(DescriptionWriteError) {
        do throws(NewFileError) {
            if replacing { try file.commitReplacing() } else { try file.commit() }
        } catch .exists {
            throw .assetChanged
        } catch {
            throw .failed(error.message(escape: \.description))
        }
    }
}
