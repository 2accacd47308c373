import FileSystem
import Store
@testable import PhotoDaemon

/// A root's disk and index held in memory, and a `ReconcileMachine` driven against them: each
/// action's result is queued, and results come back in the order the work was started, as if
/// every task took as long. Records what the machine asked for, for the tests to check.
struct SimulatedReconcile {
    /// The files on disk, in path order.
    var disk: [ReconcilePlan.Read]
    /// The index's rows, in path order.
    var index: [IndexedFile]
    /// Files a walk step hands over, and rows a sweep page reads.
    var walkStep = 1 << 20
    var sweepPage = 3

    private(set) var actions: [ReconcileMachine.Action] = []
    private(set) var committed: [WriteBatch] = []
    private(set) var total = 0
    private(set) var bulkLoads: [Int] = []
    /// Sweep pages asked for while another was out: the machine must read one at a time.
    private(set) var overlappingSweeps = 0

    init(disk: [String: UInt64], index: [String: UInt64]) {
        self.disk = disk.sorted { PathBytes($0.key) < PathBytes($1.key) }.map {
            ReconcilePlan.Read(path: PathBytes($0.key), stamp: Self.stamp($0.value), id: nil)
        }
        self.index = index.sorted { PathBytes($0.key) < PathBytes($1.key) }.map {
            IndexedFile(id: "id\($0.value)", path: PathBytes($0.key), stamp: Self.stamp($0.value))
        }
    }

    /// A stamp for the file with inode `inode`; the same inode, the same bytes.
    static func stamp(_ inode: UInt64) -> FileStamp {
        FileStamp(device: 7, inode: inode, size: 100, mtimeNs: 1)
    }

    /// Runs `machine` until no work is left; false when it stopped short of finishing.
    mutating func run(_ machine: inout ReconcileMachine, ranges: [PathRange]) -> Bool {
        var walked = Array(repeating: 0, count: ranges.count)
        var queued: [ReconcileMachine.Step] = []
        var sweeping = 0
        var pending = machine.start()
        while true {
            var next = 0
            while next < pending.count {
                let action = pending[next]
                next += 1
                actions.append(action)
                switch action {
                case .fetch(let part, .walk):
                    let files = disk.filter { ranges[part].contains($0.path) }
                    let step = Array(files.dropFirst(walked[part]).prefix(walkStep))
                    walked[part] += step.count
                    queued.append(.walked(part: part, LibraryWalk.Step(files: step, found: step.count,
                                                                       ended: walked[part] == files.count)))
                case .fetch(let part, .page(let from, let after)):
                    let rows = index.filter { row in
                        (after.map { row.path > $0 } ?? from.map { row.path >= $0 } ?? true)
                    }
                    queued.append(.paged(part: part, Array(rows.prefix(ReconcileFeed.pageSize))))
                case .fetch(let part, .check(let files)):
                    queued.append(.checked(part: part, files.map { _ in .new }))
                case .read(let chunk):
                    queued.append(.read(Self.writes(reading: chunk), files: chunk.count))
                case .commit(let batch):
                    committed.append(batch)
                    queued.append(.committed(nil, seconds: 0))
                case .count:
                    queued.append(.counted(disk.count))
                case .addToTotal(let files):
                    total += files
                case .beginBulkLoad(let files):
                    bulkLoads.append(files)
                case .settle(let plan, _):
                    pending += machine.settled(plan)
                case .sweep(let after):
                    if sweeping > 0 { overlappingSweeps += 1 }
                    sweeping += 1
                    queued.append(.swept(sweep(after: after)))
                }
            }
            guard !queued.isEmpty else { return machine.isFinished }
            let step = queued.removeFirst()
            if case .swept = step { sweeping -= 1 }
            pending = machine.handle(step)
        }
    }

    /// Ids removed, and paths inserted, by every commit.
    var removedIDs: [String] { committed.flatMap { $0.vanished.map(\.id) + $0.removals } }
    var insertedPaths: [String] { committed.flatMap { $0.inserts.map(\.path.description) } }

    private func sweep(after: PathBytes?) -> Scanner.SweptPage {
        let rows = index.filter { row in after.map { row.path > $0 } ?? true }.prefix(sweepPage)
        let onDisk = Set(disk.map(\.path))
        let gone = rows.filter { !onDisk.contains($0.path) }.map { WriteBatch.Vanished(id: $0.id, path: $0.path) }
        return Scanner.SweptPage(gone: gone, after: rows.last?.path ?? after, ended: rows.count < sweepPage)
    }

    /// What reading `chunk` writes: an update for a file with an id, an insert for a new one.
    private static func writes(reading chunk: [ReconcilePlan.Read]) -> WriteBatch {
        var writes = WriteBatch()
        let content = AssetContent(groupKey: "g", groupSpelling: "g", format: "jpeg")
        for read in chunk {
            if let id = read.id {
                writes.updates.append(WriteBatch.Update(id: id, path: read.path, stamp: read.stamp, content: content))
            } else {
                writes.inserts.append(WriteBatch.Insert(path: read.path, stamp: read.stamp, content: content))
            }
        }
        return writes
    }
}
