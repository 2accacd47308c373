import Metadata

/// Why a description was not written; the photo, its sidecar and its folder are as they were.
///
/// `failed`'s words and `attributesNotKept`'s name can quote paths and attribute names, which come
/// from the library's files: escape `message` before a log line or a reply shows it.
enum DescriptionWriteError: Error, Equatable, Sendable {
    /// The path (or the sidecar's) is a symlink, a FIFO, a device or a folder, not a regular file.
    case notRegularFile
    /// The permission bits let this process not write `what` ("the photo", "its sidecar", "its
    /// folder"), or its file system is read-only; no write bit at all counts even for root.
    case readOnly(what: String)
    /// The file on disk is not the one indexed (size, modification time or identity differ, or it
    /// is gone), or it (or its sidecar) changed while the description was being written.
    case assetChanged
    /// The file is larger than the writer reads whole.
    case tooLarge(limit: Int)
    /// The photo (or sidecar) has other hard links, which a rename would leave with the old bytes.
    case hardLinked(links: Int)
    /// The rewritten file could not be given the original's owner, group, mode or an extended
    /// attribute (named): writing would have changed who may read it.
    case attributesNotKept(String)
    /// The byte-level writer refused the file (malformed, offsets it does not adjust, ...).
    case refused(DescriptionEditError)
    /// After the write photod would not show the description: `instead`'s text comes first in the
    /// configured order (an embedded caption ahead of the sidecar, a sidecar ahead of a JPEG's own),
    /// or, when nil, no source it reads would hold it (sidecars are not one).
    case notShown(instead: String?)
    /// A system call failed; the words say which and why.
    case failed(String)

    /// The reason in words, for a log line or a reply (escape it first: see the type's comment).
    var message: String {
        switch self {
        case .notRegularFile: "not a regular file (a symlink, FIFO, device or folder)"
        case .readOnly(let what): "\(what) is read-only"
        case .assetChanged: "the file changed on disk since it was indexed"
        case .tooLarge(let limit): "the file is larger than \(limit) bytes"
        case .hardLinked(let links): "the file has \(links) hard links; replacing it would split them"
        case .attributesNotKept(let what): "the new file could not keep the original's \(what)"
        case .refused(let reason): Self.words(reason)
        case .notShown(let source?): "photod would still show the description from \(source), which comes first"
        case .notShown(nil): "photod reads no description from where it would be written"
        case .failed(let words): words
        }
    }

    /// The byte-level writer's refusal in words.
    private static func words(_ reason: DescriptionEditError) -> String {
        switch reason {
        case .invalidDescription(let why): "the description cannot be written: \(why)"
        case .descriptionTooLong(let limit): "the description is longer than \(limit) bytes"
        case .inputTooLarge(let limit): "the file is larger than \(limit) bytes"
        case .notJPEG: "the file is not a JPEG"
        case .malformedJPEG(let why): "the JPEG is malformed: \(why)"
        case .malformedExif(let why): "its EXIF cannot be edited safely: \(why)"
        case .unsupportedXMP(let why): "its XMP cannot be edited safely: \(why)"
        case .malformedIPTC(let why): "its IPTC cannot be edited safely: \(why)"
        case .tooLarge(let segment): "the \(segment) would outgrow a JPEG segment"
        case .wouldLeaveOldText(let sources): "the old text would stay in \(sources.joined(separator: ", "))"
        case .danglingOffset(let why): "editing would break offsets in the file: \(why)"
        case .wouldLoseMetadata: "editing would change other metadata photod reads"
        }
    }
}
