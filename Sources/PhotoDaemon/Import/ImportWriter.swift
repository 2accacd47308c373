import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Metadata

/// Puts a photo an app hands over (a descriptor it passed) into the library, whole or not at all.
///
/// The bytes are copied, at most `maxBytes` of them, into a hidden temporary file beside the
/// import folder; photod's own reader then decides whether they are a photo it indexes (the
/// name decides nothing). Only a whole, synced photo gets a name, in the folder of the day it
/// was taken, never over an existing file ("NAME (2).jpg"). Whatever fails leaves nothing
/// behind: the temporary file goes away with its `NewFile`.
struct ImportWriter: Sendable {
    /// Where imports go; `%Y/%m/%d` come from the date taken.
    let folder: ImportFolder
    /// The most bytes one photo may have (`[import] max_bytes`).
    let maxBytes: Int

    /// What an import made.
    struct Imported: Sendable {
        /// The photo's path in the library.
        let path: PathBytes
        /// What photod's reader found in it.
        let metadata: ImageMetadata
    }

    /// The folder the temporary file is made in: the template's part before its first field,
    /// so the photo's final folder, below it, is on the same file system.
    var staging: PathBytes {
        let fixed = folder.template.prefix { $0 != "%" }
        guard let slash = fixed.lastIndex(of: "/"), slash != fixed.startIndex else { return PathBytes("/") }
        return PathBytes(String(fixed[..<slash]))
    }

    /// Copies the photo open as `source` into the library under a name made from `name`;
    /// `now` ("2026-11-28T17:05:09", local time) names the folder of a photo with no date taken
    /// and a photo with no usable name.
    func write(from source: Int32, name: String?, now: String) throws(ImportError) -> Imported {
        switch DescriptorKind.of(source) {
        case .regular(let size) where size > maxBytes: throw .tooLarge(limit: maxBytes)
        case .regular, .pipe: break
        case .other(let kind): throw .notReadable(kind)
        case nil: throw .notReadable("a closed descriptor")
        }
        try Self.makeFolder(staging)
        let file: NewFile
        let copied: Int
        do throws(NewFileError) {
            file = try NewFile.create(at: staging.appending(Array("import".utf8)), refuseExisting: false)
            copied = try file.copy(from: source, limit: maxBytes)
        } catch .tooLarge {
            throw .tooLarge(limit: maxBytes)
        } catch {
            throw .failed(error.message(escape: \.description))
        }
        let metadata = MetadataReader.read(fileDescriptor: file.fileDescriptor, fileSize: copied)
        guard let format = metadata.format else { throw .notAnImage }
        let destination = PathBytes(folder.folder(taken: metadata.taken, today: now))
        try Self.makeFolder(destination)
        do throws(NewFileError) {
            let path = try file.commitNumbered(at: destination.appending(Array(ImportName.make(name, format: format, now: now).utf8)))
            return Imported(path: path, metadata: metadata)
        } catch {
            throw .failed(error.message(escape: \.description))
        }
    }

    private static func makeFolder(_ folder: PathBytes) throws(ImportError) {
        do {
            try FileManager.default.createDirectory(atPath: folder.description, withIntermediateDirectories: true)
        } catch {
            throw .failed("cannot create the import folder \(folder): \(error)")
        }
    }
}

/// Why an import kept nothing. `failed`'s words can quote paths, which an app chose in part:
/// escape them before a log line or a reply shows them.
enum ImportError: Error, Equatable {
    /// photod's readers do not take the bytes for a photo of a format it indexes.
    case notAnImage
    /// More bytes than `[import] max_bytes`.
    case tooLarge(limit: Int)
    /// The descriptor is not a file or a pipe (the words say what it is).
    case notReadable(String)
    /// The photo could not be written; the words say why.
    case failed(String)
}
