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
import PhotoClient
import SafeText

/// `photoctl --host HOST open`: no descriptor crosses SSH and the photo's path names a file on
/// HOST, so the original comes as bytes (as `export` gets it) into a private copy, which is shown.
extension OpenCommand {
    /// Fetches the photo from `host` into a private copy (FetchedCopies), says what it is, and
    /// opens it with the viewer the local `open` runs.
    func openCopy(from host: String) async throws {
        let copies = FetchedCopies(environment: StartEnvironment.variables)
        let folder: [UInt8]
        do throws(FetchedCopyError) {
            try copies.prepare()
            copies.removeStale(now: Int(time(nil)))
            folder = try copies.makeFolder()
        } catch {
            Output.error("photoctl: \(error)")
            throw ExitCode.failure
        }
        let path: [UInt8]
        do {
            path = try await self.fetch(into: folder)
        } catch {
            // Nothing to show: no empty folder is left for a day.
            FetchedCopies.remove(PathBytes(folder))
            throw error
        }
        Output.escapedError("photoctl: \(SafeText.escaped(bytes: path)) is a copy fetched from \(host); "
                            + "edits to it do not reach the library")
        try Self.show(path)
    }

    /// The original's bytes in a new file in `folder` (0600, named as the original), exactly as
    /// many as photod says the original has; exit status 1, said, when photod or the file fails.
    private func fetch(into folder: [UInt8]) async throws -> [UInt8] {
        let id = try await self.resolvedID()
        let client = try global.originals()
        defer { client.close() }
        var names = ExportNames(folder: folder)
        do {
            let streamed = StreamedExport(folder: folder, rename: false, force: false)
            let path = try streamed.export(id, client: client, names: &names).path
            // Made 0644 as an export is; this one is for this user alone.
            guard chmod(PathArgument.cString(path), 0o600) == 0 else {
                throw NewFileError.failed(PathBytes(path), "cannot make the copy private", errno)
            }
            return path
        } catch let error as PhotoClientError {
            guard case .daemon = error else { throw error }
            Output.error("photoctl: \(error)")
        } catch let skipped as StreamedExport.Skipped {
            Output.escapedError(skipped.message)
        } catch let error as NewFileError {
            Output.escapedError("photoctl: \(SafeText.escaped(id)): \(error.shown)")
        }
        throw ExitCode.failure
    }

    /// The photo's id: a file is looked up in photod's index (one more call), an id is taken as is.
    private func resolvedID() async throws -> String {
        guard PathArgument.isPath(photo) else { return photo }
        let client = try await global.connect()
        let ids = try await AssetArguments.ids(of: [photo], client: client)
        await client.close()
        return ids[0]
    }
}
