#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
#if canImport(Glibc)
import Glibc
#endif
import Logging
import PhotoAPI
import Posix
import SafeText
import Store
import Synchronization
import Varlink

/// `io.photod.Library.Import`: takes the photo an app passes, writes it into the library
/// (`ImportWriter`), indexes it at once and answers with the new asset.
struct ImportCall: Sendable {
    let settings: ImportSettings
    let indexer: Indexer
    let store: Store
    let mapper: AssetMapper
    let authorizer: Authorizer
    let logger: Logger
    /// Imports copy up to `max_bytes` each: an app runs 2 at once, a user's apps 4.
    let running = CostlyCallLimit(perApp: 2, perUser: 4, burst: 50, interval: 0.02, calls: "imports")

    /// Most photo bytes `data` carries: what its base64 limit decodes to.
    static let maxDataBytes = ImportParameters.MaximumBytes.data / 4 * 3

    /// Serves one call, taking the descriptor passed with it (closed when the call ends).
    func run(_ parameters: ImportParameters, call: VarlinkCall, caller: Caller) async throws -> ImportReply {
        let descriptor = call.takeFileDescriptor(0)
        defer { if let descriptor { close(descriptor) } }
        return try await run(parameters, descriptor: descriptor, caller: caller)
    }

    /// Serves one call; `descriptor` is the one passed with it, if any, owned by the caller.
    func run(_ parameters: ImportParameters, descriptor: Int32?, caller: Caller) async throws -> ImportReply {
        let source = try Self.source(parameters, descriptor: descriptor)
        let writer = try self.writer(into: parameters.folder, caller: caller)
        let imported = try await running.admit(caller) {
            try await Self.offThePool { () throws(ImportError) in
                try writer.write(source, name: parameters.name, description: parameters.description, now: LocalClock.now())
            }
        }
        do {
            try await indexer.ingest([imported.path] + (imported.sidecar.map { [$0] } ?? []))
        } catch let error as UnwritableIndexError {
            // The photo is whole on disk and the catch-up reconcile indexes it; the app is told
            // the truth: it has no id yet.
            throw VarlinkError(LibraryInterface.Error.indexUnwritable, parameters: IndexUnwritableError(reason: error.reason))
        }
        guard let stored = try await store.read({ try $0.assets(paths: [imported.path]) }).first else {
            logger.error("an imported photo is not in the index after indexing it", metadata: [
                "path": "\(SafeText.escaped(imported.path.description))"])
            throw VarlinkError.internalError()
        }
        if case .app(let identity) = caller { await authorizer.added([stored.id], by: identity) }
        logger.notice("photo imported", metadata: [
            "app": "\(caller.appID)", "id": "\(stored.id)", "bytes": "\(stored.stamp.size)",
            "path": "\(SafeText.escaped(imported.path.description))"])
        let asset = mapper.asset(stored)
        return ImportReply(id: asset.id, path: asset.path, group: asset.group, fallback: asset.fallback ?? false)
    }

    /// The writer for `[import]`, or for the owner's own folder, which must lie in a root.
    private func writer(into folder: String?, caller: Caller) throws -> ImportWriter {
        let configured = try configuredWriter()
        guard let folder else { return configured }
        guard caller.isOwner else { throw AccessGate.ownerOnly("Import with a folder", interface: LibraryInterface.name) }
        let roots = indexer.roots.all.map(\.configured)
        let template = folder.replacing("%", with: "%%")
        guard folder.hasPrefix("/"), ImportConfig.isInside(template, roots: roots),
              let chosen = try? ImportFolder(template: template) else {
            throw VarlinkError(LibraryInterface.Error.rootNotFound, parameters: RootNotFoundError(root: folder, roots: roots))
        }
        return ImportWriter(folder: chosen, maxBytes: configured.maxBytes)
    }

    /// The writer `[import]` configures, or the interface's error for a config it cannot use.
    private func configuredWriter() throws(VarlinkError) -> ImportWriter {
        do {
            return try settings.writer()
        } catch {
            throw Self.varlinkError(error)
        }
    }

    /// Where the photo comes from: the descriptor passed, or the bytes in `data`, never both.
    private static func source(_ parameters: ImportParameters, descriptor: Int32?) throws -> ImportWriter.Source {
        switch (parameters.acceptFileDescriptors == true, descriptor, parameters.data) {
        case (true, let descriptor?, nil):
            return .descriptor(descriptor)
        case (true, nil, _):
            throw VarlinkError(LibraryInterface.Error.fileDescriptorsRequired, parameters: FileDescriptorsRequiredError(
                hint: "acceptFileDescriptors is true but no file descriptor came with the call: pass the photo with "
                    + "the call's message (SCM_RIGHTS), or send its bytes in data instead"))
        case (false, _, let data?):
            guard let decoded = Data(base64Encoded: data) else { throw VarlinkError.invalidParameter("data") }
            return .bytes(Array(decoded))
        case (true, _, _?):
            throw VarlinkError.invalidParameter("data")
        case (false, _, nil):
            throw VarlinkError(LibraryInterface.Error.fileDescriptorsRequired, parameters: FileDescriptorsRequiredError(
                hint: "pass the photo as a file descriptor with acceptFileDescriptors: true, or its bytes (at most "
                    + "\(maxDataBytes)) base64 in data"))
        }
    }

    /// Runs the blocking write on a thread of its own, so a 512 MiB copy holds none of the
    /// concurrency pool's few threads; its refusals become the interface's errors.
    private static func offThePool(_ body: @escaping @Sendable () throws(ImportError) -> ImportWriter.Imported)
        async throws -> ImportWriter.Imported {
        let result = await DetachedThread.result(name: "photod-import") {
            Result { () throws(ImportError) in try body() }
        }
        do {
            return try result.get()
        } catch {
            throw Self.varlinkError(error)
        }
    }

    /// The interface's error for a refused import.
    static func varlinkError(_ error: ImportError) -> VarlinkError {
        switch error {
        case .notAnImage:
            VarlinkError(LibraryInterface.Error.notAnImage, parameters: NotAnImageError(
                hint: "photod's readers do not take these bytes for a photo of a format it indexes "
                    + "(JPEG, PNG, TIFF and raws, HEIF, AVIF, WebP, JPEG XL, …); nothing was kept"))
        case .tooLarge(let limit):
            VarlinkError(LibraryInterface.Error.tooLarge, parameters: TooLargeError(
                limit: limit, hint: "photod takes photos of at most \(limit) bytes ([import] max_bytes); nothing was kept"))
        case .notReadable(let kind):
            VarlinkError(LibraryInterface.Error.notAnImage, parameters: NotAnImageError(
                hint: "the descriptor passed is \(kind), not a file or a pipe; nothing was kept"))
        case .descriptionRefused(let refusal):
            VarlinkError(LibraryInterface.Error.descriptionRefused, parameters: DescriptionRefusedError(
                reason: "\(refusal); nothing was kept"))
        case .failed(let reason):
            VarlinkError(LibraryInterface.Error.importFailed, parameters: ImportFailedError(
                reason: SafeText.escaped(reason) + "; nothing was kept"))
        }
    }
}

/// `[import]` as it stands now (a reload changes it): the folder template and the size bound.
final class ImportSettings: Sendable {
    private let current: Mutex<Result<ImportWriter, ImportError>>

    /// Settings from `config` for `roots` (the configured roots).
    init(_ config: ImportConfig, roots: [String]) {
        current = Mutex(Self.writer(config, roots: roots))
    }

    /// Applies a reloaded config.
    func update(_ config: ImportConfig, roots: [String]) {
        let writer = Self.writer(config, roots: roots)
        current.withLock { $0 = writer }
    }

    /// The writer for the next import.
    func writer() throws(ImportError) -> ImportWriter { try current.withLock { $0 }.get() }

    /// The config loader refuses a bad `folder`, and escapes a root's `%`: a template that
    /// still does not parse fails the imports, in words, rather than photod's start.
    private static func writer(_ config: ImportConfig, roots: [String]) -> Result<ImportWriter, ImportError> {
        let template = config.template(roots: roots)
        do {
            return .success(ImportWriter(folder: try ImportFolder(template: template), maxBytes: config.maxBytes))
        } catch {
            return .failure(.failed("the import folder \(template) is not usable: \(error)"))
        }
    }
}
