import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl export ID… DIR`: byte-exact copies of originals, read through the descriptors
/// photod passes (OpenOriginal), so it works for an app that cannot see the library's folders.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy photos' original files into a folder.",
        discussion: """
            Each copy is named as the original, keeps its modification time, and appears only \
            when complete; an existing file is never replaced without --force. Two photos with \
            the same name (or a name already in the folder) are both kept with --rename, which \
            numbers the later one as a file manager does ("IMG_0001 (2).jpg") and says so. An id \
            that fails is reported and the others are still exported; the exit status is then 1.

            Example: photoctl export --rename $(photoctl find beach --format ids) ~/Desktop/beach
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Asset ids (as printed by `photoctl list`) or the photos' files, then the folder to copy into.",
                                 valueName: "id|path… dir"), completion: LibraryCompletion.assets)
    var arguments: [String] = []

    @Flag(name: .long, help: "Replace files of the same name in the folder.")
    var force = false

    @Flag(name: .long, help: "Keep both when a name is taken: number the copy (\"IMG_0001 (2).jpg\").")
    var rename = false

    private var photos: [String] { Array(arguments.dropLast()) }
    /// The folder's exact bytes (it need not be UTF-8), without a trailing slash.
    private var folder: [UInt8] {
        let folder = arguments.last.map(RawArguments.bytes(of:)) ?? [UInt8(ascii: ".")]
        return folder.count > 1 && folder.last == UInt8(ascii: "/") ? Array(folder.dropLast()) : folder
    }

    func validate() throws {
        guard arguments.count >= 2 else { throw ValidationError("name at least one asset id or file, then the folder") }
        if force && rename { throw ValidationError("--force replaces a file of the same name and --rename keeps both: choose one") }
        var status = stat()
        guard stat(PathArgument.cString(folder), &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ValidationError("\(String(decoding: folder, as: UTF8.self)) is not a folder")
        }
    }

    func run() async throws {
        let ids = try await resolvedIDs()
        let client = try global.originals()
        defer { client.close() }
        var failed = false
        var names = ExportNames(folder: folder)
        for id in ids {
            let shownID = SafeText.escaped(id)
            do {
                guard client.receivesDescriptors else {
                    // Over --host: the bytes come in the replies.
                    let streamed = StreamedExport(folder: folder, rename: rename, force: force)
                    let (path, renamed) = try streamed.export(id, client: client, names: &names)
                    Output.people("\(shownID) \(SafeText.escaped(bytes: path))\(renamed ? " (renamed: the name was taken)" : "")\n")
                    continue
                }
                let original = try client.open(id: id)
                let name = Self.exactName(of: original.reply)
                let shownName = SafeText.escaped(bytes: name)
                guard Self.isPlainName(name) else {
                    Output.escapedError("photoctl: \(shownID): photod names its file \"\(shownName)\", not a plain file name; skipped")
                    failed = true
                    continue
                }
                guard let chosen = names.claim(name, renaming: rename, replacing: force) else {
                    Output.escapedError("photoctl: \(shownID): another photo of this export is named \"\(shownName)\"; "
                                        + "skipped (add --rename to keep both)")
                    failed = true
                    continue
                }
                let path = try Self.copy(original, to: folder + [UInt8(ascii: "/")] + chosen, replacing: force)
                let renamed = chosen == name ? "" : " (renamed: \"\(shownName)\" was taken)"
                Output.people("\(shownID) \(SafeText.escaped(bytes: path))\(renamed)\n")
            } catch let error as PhotoClientError {
                // Only an error reply leaves the connection usable for the next id.
                guard case .daemon = error else { throw error }
                Output.error("photoctl: \(error)")
                failed = true
            } catch let skipped as StreamedExport.Skipped {
                Output.escapedError(skipped.message)
                failed = true
            } catch let error as NewFileError {
                let hint = if case .exists = error { " (or --rename to keep both)" } else { "" }
                Output.escapedError("photoctl: \(shownID): \(error.shown)\(hint)")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// The ids of the photos named, files looked up in photod's index (one call, only when a
    /// file is named).
    private func resolvedIDs() async throws -> [String] {
        guard photos.contains(where: PathArgument.isPath) else { return photos }
        let client = try await global.connect()
        let ids = try await AssetArguments.ids(of: photos, client: client)
        await client.close()
        return ids
    }

    /// False for a name that would leave the folder or hide in it ("..", "a/b", ".profile").
    static func isPlainName(_ name: [UInt8]) -> Bool {
        !name.isEmpty && name.first != UInt8(ascii: ".") && !name.contains(UInt8(ascii: "/")) && !name.contains(0)
    }

    /// The name's exact bytes when photod sent them (the name is not UTF-8 and `name` has
    /// U+FFFD in their place), else the name.
    static func exactName(of reply: OpenOriginalReply) -> [UInt8] {
        guard let exact = reply.nameBytes, let bytes = Data(base64Encoded: exact) else { return Array(reply.name.utf8) }
        return Array(bytes)
    }

    private static func copy(_ original: OpenedOriginal, to path: [UInt8], replacing: Bool) throws -> [UInt8] {
        guard let source = original.fileDescriptor else { throw PhotoClientError.protocolFailure("no descriptor") }
        let file = try NewFile.create(at: path, replacing: replacing)
        let reply = original.reply
        // Unfinished, the file is discarded when it goes away.
        let copied = try file.copy(from: source)
        switch reply.descriptor ?? .file {
        case .file:
            try file.copyTimes(from: source)
        case .sealedCopy, .pipe:
            // An app's copy or pipe: its own times are not the original's, and a pipe that
            // ends early (photod gave up on it) must not leave a short file behind.
            guard copied == reply.size else {
                throw NewFileError.failed(PathBytes(path), "photod sent \(copied) of the original's \(reply.size) bytes", EIO)
            }
            try file.copyTimes(modified: reply.modified)
        }
        try file.commit(replacing: replacing)
        return path
    }
}
