#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl --host … export` of one photo: the original's bytes come in OpenOriginal's streamed
/// replies (no descriptor crosses SSH) and go into a new file as they come, named and timed from
/// the first reply, complete and exactly `size` bytes before it takes its name.
struct StreamedExport {
    let folder: [UInt8]
    let rename: Bool
    let force: Bool

    /// Why a photo was not exported while the connection stays usable; printed by the caller.
    struct Skipped: Error {
        let message: String
    }

    /// Exports `id`; the path written. A name that is not plain or already taken by this export,
    /// or a file that cannot be started, skips the photo: its remaining bytes are read and
    /// dropped, so the connection is still in step for the next id.
    func export(_ id: String, client: OriginalsClient, names: inout ExportNames) throws -> (path: [UInt8], renamed: Bool) {
        let shownID = SafeText.escaped(id)
        var file: NewFile?
        var skipped: String?
        var chosenPath: [UInt8] = []
        var renamed = false
        let (reply, count) = try client.read(id: id) { reply, bytes in
            if file == nil && skipped == nil {
                let name = ExportCommand.exactName(of: reply)
                let shownName = SafeText.escaped(bytes: name)
                if !ExportCommand.isPlainName(name) {
                    skipped = "photoctl: \(shownID): photod names its file \"\(shownName)\", not a plain file name; skipped"
                } else if let chosen = names.claim(name, renaming: rename, replacing: force) {
                    chosenPath = folder + [UInt8(ascii: "/")] + chosen
                    renamed = chosen != name
                    do throws(NewFileError) {
                        file = try NewFile.create(at: chosenPath, replacing: force)
                    } catch {
                        let hint = if case .exists = error { " (or --rename to keep both)" } else { "" }
                        skipped = "photoctl: \(shownID): \(error.shown)\(hint)"
                    }
                } else {
                    skipped = "photoctl: \(shownID): another photo of this export is named \"\(shownName)\"; "
                        + "skipped (add --rename to keep both)"
                }
            }
            try file?.write(bytes)
        }
        if let skipped { throw Skipped(message: skipped) }
        guard let file else { throw Skipped(message: "photoctl: \(shownID): photod sent no bytes") }
        // A file that changed size while it was sent must not be left behind short or long.
        guard count == reply.size else {
            throw NewFileError.failed(PathBytes(chosenPath), "photod sent \(count) of the original's \(reply.size) bytes", EIO)
        }
        try file.copyTimes(modified: reply.modified)
        try file.commit(replacing: force)
        return (chosenPath, renamed)
    }
}
