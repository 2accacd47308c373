import FileSystem
#if canImport(Glibc)
import Glibc
#endif
import Store

/// The end of a reconcile's walk: what only the end of every range can settle, and the sweep of
/// the index when more rows vanished than a walk keeps.
extension Scanner {
    /// One page of the sweep: its rows whose path holds no file, the last path it read, and
    /// whether it was the last.
    struct SweptPage: Sendable {
        var gone: [WriteBatch.Vanished]
        var after: PathBytes?
        var ended: Bool
    }

    /// The rows of one page of the index under `root` after the path `after` whose path no
    /// longer holds a file: vanished, unless a move written before takes them elsewhere. Rows in
    /// `excluding` (a drive that is away) are kept.
    func sweepPage(root: PathBytes, after: PathBytes?, excluding: [PathBytes] = []) async throws -> SweptPage {
        let rows = try await store.read { try $0.indexedFiles(under: root, after: after, limit: ReconcileFeed.pageSize) }
        let gone = try await pool.runIfActive { () -> [WriteBatch.Vanished] in
            let opener = SafeOpener()
            let leftOut = LeftOutFolders(excluding)
            return rows.filter { !leftOut.holds($0.path) }.filter { row in
                switch opener.linkStatus(row.path) {
                case .success(let info): return info.kind != .regular
                case .failure(let error): return error.meansNoFile
                }
            }.map { WriteBatch.Vanished(id: $0.id, path: $0.path) }
        }
        return SweptPage(gone: gone, after: rows.last?.path ?? after, ended: rows.count < ReconcileFeed.pageSize)
    }

    /// The writes that move assets to their new paths, bytes unchanged: nothing to read.
    static func writes(moving moves: [ReconcilePlan.Move]) -> WriteBatch {
        var writes = WriteBatch()
        // The writer removes before it updates: an asset moved over another takes its path.
        writes.removals = moves.compactMap(\.replaces)
        writes.updates = moves.map { WriteBatch.Update(id: $0.id, path: $0.path, stamp: $0.stamp, content: nil) }
        return writes
    }

    /// New files that are assets moved in from outside this folder while nobody could see the
    /// move keep their ids. Skipped when every asset is inside this folder (a first index) and
    /// the merge paired the moves inside it (`indexedHere`: the rows it compared, else 0).
    func adoptUnseenMoves(into plan: inout ReconcilePlan, root: PathBytes, indexedHere: Int,
                                  indexedAnywhere: Int) async throws {
        guard indexedAnywhere > indexedHere else { return }
        let reads = plan.reads
        let candidates = try await store.read {
            try $0.indexedFiles(sharingInodeWith: reads.filter(\.mayBeMovedIn).map(\.stamp))
        }
        guard !candidates.isEmpty else { return }
        let finder = MovedFileFinder(candidates: candidates)
        let adopted = try await pool.runIfActive { () -> [Int: IndexedFile] in
            var adopted: [Int: IndexedFile] = [:]
            var taken: Set<String> = []
            let opener = SafeOpener()
            for (index, read) in reads.enumerated() where read.mayBeMovedIn {
                if let asset = finder.asset(for: read.stamp, root: root, opener: opener), taken.insert(asset.id).inserted {
                    adopted[index] = asset
                }
            }
            return adopted
        }
        // Same bytes (the finder checks size and mtime): nothing to read, only the path changes.
        for (index, asset) in adopted.sorted(by: { $0.key > $1.key }) {
            if asset.stamp.sidecar == plan.reads[index].stamp.sidecar {
                let read = plan.reads.remove(at: index)
                plan.moves.append(ReconcilePlan.Move(id: asset.id, path: read.path, stamp: read.stamp,
                                                     replaces: read.replaces))
            } else {
                plan.reads[index].id = asset.id  // the same asset, but its sidecar differs: read it again
            }
        }
    }
}
