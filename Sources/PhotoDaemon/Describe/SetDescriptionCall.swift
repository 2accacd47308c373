import FileSystem
import Logging
import Metadata
import PhotoAPI
import Posix
import SafeText
import Store
import Varlink

/// `io.photod.Library.SetDescription`: writes a description into each photo (or its sidecar)
/// with `DescriptionWriter`, then indexes the files at once, so the reply and the change that
/// subscribers see carry the photo in its new group, under its old id.
struct SetDescriptionCall: Sendable {
    let writer: DescriptionWriter
    let indexer: Indexer
    let store: Store
    let mapper: AssetMapper
    let logger: Logger

    /// Most ids one call may name.
    static let maximumIDs = 1000

    /// Serves one call; `access` is what the caller may see (an id outside it is AssetNotFound).
    func run(_ parameters: SetDescriptionParameters, access: LibraryAccess, caller: Caller) async throws
        -> SetDescriptionReply {
        try Self.checkWritable(parameters.description)
        let (ids, byID) = try await checked(parameters.ids, access: access)
        var written: [String] = []
        var touched: [PathBytes] = []
        var failed: [(id: String, error: DescriptionWriteError)] = []
        for id in ids {
            guard let asset = byID[id] else { continue }
            do {
                let outcome = try await write(asset, description: parameters.description)
                touched += Self.touched(asset.path, outcome)
                written.append(id)
            } catch let error as DescriptionWriteError {
                failed.append((id, error))
            }
        }
        // One index write for the whole call, as a reconcile batches what it finds.
        if !touched.isEmpty { try await indexer.ingest(touched) }
        logger.notice("descriptions written", metadata: [
            "app": "\(caller.appID)", "written": "\(written.count)", "failed": "\(failed.count)",
            "description_bytes": "\(parameters.description?.utf8.count ?? 0)"])
        if written.isEmpty, let first = failed.first { throw Self.varlinkError(first.error, id: first.id) }
        let done = written
        let now = try await store.read(as: access) { try $0.assets(ids: done) }
        return SetDescriptionReply(
            assets: now.map(mapper.asset),
            failed: failed.map { DescriptionFailure(id: $0.id, error: Self.name(of: $0.error),
                                                    reason: SafeText.escaped($0.error.message)) })
    }

    /// The call's distinct ids, sorted, and each one's asset: `AssetNotFound` for an id `access`
    /// does not reach (the caller cannot tell it from one the library lacks), before any write,
    /// so a typo writes nothing.
    func checked(_ requested: [String], access: LibraryAccess) async throws
        -> (ids: [String], assets: [String: StoredAsset]) {
        guard requested.count <= Self.maximumIDs, !requested.isEmpty else { throw VarlinkError.invalidParameter("ids") }
        let ids = Array(Set(requested)).sorted()
        let found = try await store.read(as: access) { try $0.assets(ids: ids) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let missing = requested.first(where: { byID[$0] == nil }) {
            throw VarlinkError(LibraryInterface.Error.assetNotFound, parameters: AssetNotFoundError(id: missing))
        }
        return (ids, byID)
    }

    /// Refuses a description no photo could take (too long, NUL, control characters that XMP
    /// cannot hold) before any file is read, and before an owner is asked about it.
    static func checkWritable(_ description: String?) throws(VarlinkError) {
        do {
            _ = try DescriptionEdit.validated(description)
        } catch {
            throw VarlinkError(LibraryInterface.Error.descriptionRefused, parameters: DescriptionRefusedError(
                reason: SafeText.escaped(DescriptionWriteError.refused(error).message)))
        }
    }

    /// The files a write changed, for the indexer: the photo, and the sidecar it wrote.
    private static func touched(_ photo: PathBytes, _ outcome: DescriptionWriter.Outcome) -> [PathBytes] {
        switch outcome.written {
        case .inPlace, .nothing: [photo]
        case .sidecar(let sidecar): [sidecar, photo]
        }
    }

    /// Runs the blocking write on a thread of its own (a photo is read whole: up to 512 MiB).
    private func write(_ asset: StoredAsset, description: String?) async throws -> DescriptionWriter.Outcome {
        let writer = self.writer
        let result = await DetachedThread.result(name: "photod-describe") {
            Result { () throws(DescriptionWriteError) in
                try writer.write(path: asset.path, expected: asset.stamp, description: description)
            }
        }
        return try result.get()
    }

    /// The interface's error name for a file not written.
    static func name(of error: DescriptionWriteError) -> String {
        switch error {
        case .assetChanged: LibraryInterface.Error.assetChanged
        case .readOnly: LibraryInterface.Error.readOnly
        default: LibraryInterface.Error.descriptionRefused
        }
    }

    /// The call's error when no photo was written.
    static func varlinkError(_ error: DescriptionWriteError, id: String) -> VarlinkError {
        let reason = SafeText.escaped(error.message)
        return switch error {
        case .assetChanged:
            VarlinkError(LibraryInterface.Error.assetChanged, parameters: AssetChangedError(
                id: id, hint: "the file changed on disk since photod indexed it; read it again (GetAssets), then retry"))
        case .readOnly:
            VarlinkError(LibraryInterface.Error.readOnly, parameters: ReadOnlyError(id: id, reason: reason))
        default:
            VarlinkError(LibraryInterface.Error.descriptionRefused, parameters: DescriptionRefusedError(reason: reason))
        }
    }
}
