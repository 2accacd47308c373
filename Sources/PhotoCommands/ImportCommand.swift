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
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl import FILE…`: adds photos to the library the way an app does (Import), each file
/// passed to photod as a descriptor, so photod's own checks decide what is a photo.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add photos to the library.",
        discussion: """
            Each file is copied into the library, into photod.toml's [import] folder (by default \
            Imported/YEAR/MONTH in the first root, by the date the photo was taken) or into \
            --to FOLDER, which must be inside a root. Its bytes are kept exactly, except for the \
            description when --description is given (written into a JPEG, else into an XMP \
            sidecar beside the copy). A name already taken gets a number ("IMG_1 (2).jpg"); no \
            file is ever replaced. Prints each new asset's id and path. A file that is refused \
            (not a photo, too large) is reported and the others are still added; the exit status \
            is then 1.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The photos to add.", valueName: "file"), completion: .file())
    var files: [String] = []
    @Option(name: .long, help: "Write this description into each photo (its group).") var description: String?
    @Option(name: .long, help: ArgumentHelp("Add into this folder (inside a root) instead of [import] folder.",
                                            valueName: "folder"), completion: .directory)
    var to: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
    }

    func run() throws {
        let directory = FileManager.default.currentDirectoryPath
        let folder = to.map { String(decoding: PathArgument.resolve($0, in: directory), as: UTF8.self) }
        let client = try global.originals()
        defer { client.close() }
        var failed = false
        var imported: [ImportReply] = []
        for file in files {
            let shown = SafeText.escaped(file)
            let descriptor = open(PathArgument.cString(RawArguments.bytes(of: file)), O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                Output.escapedError("photoctl: \(shown): cannot open it: \(String(cString: strerror(errno)))")
                failed = true
                continue
            }
            defer { close(descriptor) }
            let name = file.split(separator: "/").last.map(String.init)
            do {
                let reply = try client.importPhoto(descriptor: descriptor, name: name, description: description,
                                                   folder: folder)
                imported.append(reply)
                if !global.json { Output.people("\(SafeText.escaped(reply.id)) \(SafeText.escaped(reply.path))\n") }
            } catch {
                // Only an error reply leaves the connection usable for the next file.
                guard case .daemon = error else { throw error }
                Output.error("photoctl: \(file): \(error)")
                failed = true
            }
        }
        if global.json { try Output.json(imported) }
        if failed { throw ExitCode.failure }
    }
}
