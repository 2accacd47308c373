import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Metadata

/// Puts a photo an app hands over into the library, whole or not at all.
///
/// The bytes are copied, at most `maxBytes` of them, into a hidden temporary file beside the
/// import folder; photod's own reader then decides whether they are a photo it indexes (the
/// name decides nothing). A description is written as photod writes descriptions: into a JPEG's
/// metadata before the photo has a name, else into an XMP sidecar beside it. Only a whole,
/// synced photo gets a name, in the folder of the day it was taken, never over an existing file
/// ("NAME (2).jpg"). Whatever fails leaves nothing behind: the temporary file goes away with
/// its `NewFile`. Blocking: run it off the concurrency pool.
struct ImportWriter: Sendable {
    /// Where imports go; `%Y/%m/%d` come from the date taken.
    let folder: ImportFolder
    /// The most bytes one photo may have (`[import] max_bytes`).
    let maxBytes: Int

    /// Where the photo's bytes come from.
    enum Source {
        /// A descriptor the app passed: a regular file or a pipe, read to its end.
        case descriptor(Int32)
        /// The bytes themselves (a client without descriptor passing).
        case bytes([UInt8])
    }

    /// What an import made.
    struct Imported: Sendable {
        /// The photo's path in the library.
        let path: PathBytes
        /// The sidecar written beside it, when the description went into one.
        let sidecar: PathBytes?
        /// What photod's reader found in it.
        let metadata: ImageMetadata
    }

    /// The folder the temporary file is made in: the template's part before its first field,
    /// so the photo's final folder, below it, is on the same file system.
    var staging: PathBytes {
        guard folder.template.contains("%") else { return PathBytes(folder.template.replacing("%%", with: "%")) }
        let fixed = folder.template.prefix { $0 != "%" }
        guard let slash = fixed.lastIndex(of: "/"), slash != fixed.startIndex else { return PathBytes("/") }
        return PathBytes(String(fixed[..<slash]))
    }

    /// Copies the photo from `source` into the library under a name made from `name`, with
    /// `description` written into it when given; `now` ("2026-11-28T17:05:09", local time)
    /// names the folder of a photo with no date taken and a photo with no usable name.
    func write(_ source: Source, name: String?, description: String? = nil, now: String) throws(ImportError) -> Imported {
        if case .descriptor(let descriptor) = source {
            switch DescriptorKind.of(descriptor) {
            case .regular(let size) where size > maxBytes: throw .tooLarge(limit: maxBytes)
            case .regular, .pipe: break
            case .other(let kind): throw .notReadable(kind)
            case nil: throw .notReadable("a closed descriptor")
            }
        } else if case .bytes(let bytes) = source, bytes.count > maxBytes {
            throw .tooLarge(limit: maxBytes)
        }
        try Self.makeFolder(staging)
        var (file, size) = try copy(source)
        var metadata = MetadataReader.read(fileDescriptor: file.fileDescriptor, fileSize: size)
        guard let format = metadata.format else { throw .notAnImage }
        var sidecar: [UInt8]?
        if let description {
            if format == .jpeg {
                (file, size) = try described(file, size: size, description: description)
                metadata = MetadataReader.read(fileDescriptor: file.fileDescriptor, fileSize: size)
            } else {
                sidecar = try Self.refusing { () throws(DescriptionEditError) in
                    try DescriptionEdit.sidecar(existing: nil, description: description)
                }
            }
        }
        let destination = PathBytes(folder.folder(taken: metadata.taken, today: now))
        try Self.makeFolder(destination)
        let path = try Self.failing { () throws(NewFileError) in
            try file.commitNumbered(at: destination.appending(Array(ImportName.make(name, format: format, now: now).utf8)))
        }
        guard let sidecar else { return Imported(path: path, sidecar: nil, metadata: metadata) }
        // Beside the photo under the name photod reads first; one left by an earlier photo of
        // that name would describe this one, so it is replaced.
        let sidecarPath = path.appendingToName(Array(".xmp".utf8))
        do throws(ImportError) {
            try Self.failing { () throws(NewFileError) in
                let written = try NewFile.create(at: sidecarPath, refuseExisting: false)
                try written.write(sidecar)
                try written.commitReplacing()
            }
        } catch {
            // The photo was asked for with its description: without it, nothing is kept.
            FileSystem.removePlaced(path)
            throw error
        }
        return Imported(path: path, sidecar: sidecarPath, metadata: metadata)
    }

    /// The source's bytes in a new temporary file, and how many there are.
    private func copy(_ source: Source) throws(ImportError) -> (NewFile, Int) {
        do throws(NewFileError) {
            let file = try NewFile.create(at: staging.appending(Array("import".utf8)), refuseExisting: false)
            switch source {
            case .descriptor(let descriptor):
                return (file, try file.copy(from: descriptor, limit: maxBytes))
            case .bytes(let bytes):
                try file.write(bytes)
                return (file, bytes.count)
            }
        } catch .tooLarge {
            throw .tooLarge(limit: maxBytes)
        } catch {
            throw .failed(error.message(escape: \.description))
        }
    }

    /// A new temporary file holding the JPEG in `file` with `description` written in; `file` is dropped.
    private func described(_ file: NewFile, size: Int, description: String) throws(ImportError) -> (NewFile, Int) {
        let bytes = try Self.failing { () throws(NewFileError) in try file.readBack(size: size) }
        let edited = try Self.refusing { () throws(DescriptionEditError) in
            try DescriptionEdit.jpeg(bytes, description: description)
        }
        file.discard()
        return try Self.failing { () throws(NewFileError) in
            let rewritten = try NewFile.create(at: staging.appending(Array("import".utf8)), refuseExisting: false)
            try rewritten.write(edited)
            return (rewritten, edited.count)
        }
    }

    /// Runs a description edit; its refusal is the import's.
    private static func refusing<T>(_ body: () throws(DescriptionEditError) -> T) throws(ImportError) -> T {
        do {
            return try body()
        } catch {
            throw .descriptionRefused(error)
        }
    }

    /// Runs a file step; its failure, in words, is the import's.
    private static func failing<T>(_ body: () throws(NewFileError) -> T) throws(ImportError) -> T {
        do {
            return try body()
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
    /// The description cannot be written into this photo as photod writes them.
    case descriptionRefused(DescriptionEditError)
    /// The photo could not be written; the words say why.
    case failed(String)
}
