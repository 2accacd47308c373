import FileSystem
import Metadata
import Posix
import Store

extension DescriptionWriter {
    /// Writes the description into the sidecar photod reads for `path` (a new `NAME.EXT.xmp` when
    /// there is none); the photo itself is only checked, never written.
    func writeSidecar(
        _ path: PathBytes, _ photo: borrowing OpenFile, embedded: DescriptionCandidates, description: String?, opener: SafeOpener
    ) throws(DescriptionWriteError) -> Outcome {
        try DescribeFiles.requireWritableFolder(of: path, opener: opener, caller: caller)
        let found = Sidecar.find(for: path, opener: opener)
        let target = found?.path ?? path.appendingToName(Array(".xmp".utf8))
        let candidate = Sidecar.candidates(for: path).firstIndex(of: target) ?? 0

        let staged: NewFile?
        let read: FileInfo?
        if let found {
            let update = try stageUpdate(of: found.path, signature: found.signature, candidate: candidate,
                                         embedded: embedded, description: description, opener: opener)
            staged = update.file
            read = update.read
        } else {
            staged = try stageNew(at: target, for: photo, embedded: embedded, description: description, opener: opener)
            read = nil
        }
        guard let staged else {
            var stamp = FileStamp(photo.info)
            stamp.sidecar = found?.signature ?? 0
            return Outcome(written: .nothing, stamp: stamp)
        }
        beforeCommit(target)
        try DescribeFiles.requireUnchanged(path, photo.info, opener: opener)
        if let found, let read { try DescribeFiles.requireUnchanged(found.path, read, opener: opener) }
        try commit(staged, replacing: found != nil)
        guard case .success(let written) = opener.linkStatus(target) else { throw .failed("cannot stat the sidecar after writing it") }
        var stamp = FileStamp(photo.info)
        stamp.sidecar = Sidecar.signature(of: written, candidate: candidate)
        return Outcome(written: .sidecar(target), stamp: stamp)
    }

    /// The existing sidecar's bytes with the description changed, staged beside it with its owner,
    /// mode and attributes (nil when they would not change), and the sidecar as it was read.
    private func stageUpdate(
        of sidecar: PathBytes, signature: Int64, candidate: Int, embedded: DescriptionCandidates, description: String?,
        opener: SafeOpener
    ) throws(DescriptionWriteError) -> (file: NewFile?, read: FileInfo) {
        let file = try DescribeFiles.open(sidecar, opener: opener)
        // The file opened is the one the look-up found, not one renamed there since.
        guard Sidecar.signature(of: file.info, candidate: candidate) == signature else { throw .assetChanged }
        guard file.info.size <= XMPPacket.maxLength else { throw .tooLarge(limit: XMPPacket.maxLength) }
        guard file.info.linkCount == 1 else { throw .hardLinked(links: file.info.linkCount) }
        let ownership = try DescribeFiles.ownership(of: file.fileDescriptor, "the sidecar")
        guard ownership.allowsWriting(by: caller) else { throw .readOnly(what: "its sidecar") }
        let existing = try DescribeFiles.readAll(file.fileDescriptor, file.info)
        let updated: [UInt8]?
        do throws(DescriptionEditError) {
            updated = try DescriptionEdit.sidecar(existing: existing, description: description)
        } catch {
            throw .refused(error)
        }
        let result = updated ?? existing
        try requireShown(description, embedded: embedded, sidecarText: XMPPacket.description(in: result))
        guard result != existing else { return (nil, file.info) }
        return (try DescribeFiles.stage(result, for: sidecar, ownership: ownership, attributesOf: file.fileDescriptor), file.info)
    }

    /// A new sidecar for the photo, staged with the photo's owner and its read and write bits (a
    /// private photo gets a private sidecar: the description is the photo's); nil when there is
    /// nothing to set.
    private func stageNew(
        at target: PathBytes, for photo: borrowing OpenFile, embedded: DescriptionCandidates, description: String?,
        opener: SafeOpener
    ) throws(DescriptionWriteError) -> NewFile? {
        let created: [UInt8]?
        do throws(DescriptionEditError) {
            created = try DescriptionEdit.sidecar(existing: nil, description: description)
        } catch {
            throw .refused(error)
        }
        try requireShown(description, embedded: embedded, sidecarText: created.flatMap { XMPPacket.description(in: $0) })
        guard let created else { return nil }
        // A symlink or FIFO under the name photod would read first is refused, not replaced.
        try DescribeFiles.requireAbsent(target, opener: opener)
        var ownership = try DescribeFiles.ownership(of: photo.fileDescriptor, "the photo")
        ownership.mode &= 0o666
        return try DescribeFiles.stage(created, for: target, ownership: ownership, attributesOf: nil)
    }
}
