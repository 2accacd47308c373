#if canImport(Glibc)
import Glibc
#endif
import NIOPosix
import Synchronization

/// The CPU priority of the shared reader threads, where apps' queries run.
///
/// On Linux a nice value belongs to a thread, so a shared reader lowers its own once, before its
/// first read, and the owner's lane, the writer and the event loops keep theirs: eight connections
/// of one app searching back to back kept both shared readers busy, and the owner's `status`
/// waited for the processor behind them. Only photod turns this on (`Store.yieldSharedReaders()`):
/// a process that hosts the store for tests keeps its threads as they are.
enum SharedReaderPriority {
    /// The nice value the shared readers take: the owner's threads run first when both want the CPU.
    static let nice: Int32 = 10
    static let enabled = Atomic(false)
    /// Set on a reader thread once it has looked, so each read after its first costs no system call.
    private static let looked = ThreadSpecificVariable<Looked>()
    private final class Looked: Sendable {}

    /// Lowers the calling thread's priority to `nice` if it is higher and this is turned on; once
    /// per thread.
    static func applyToCurrentThread() {
        guard enabled.load(ordering: .relaxed), looked.currentValue == nil else { return }
        looked.currentValue = Looked()
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0, current < nice else { return }
        // Linux applies PRIO_PROCESS with who 0 to the calling thread alone.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
    }
}

extension Store {
    /// Makes the shared readers (apps' queries, the scanner's lookups) yield the processor to the
    /// owner's reserved lane, the writer and the event loops. For photod's `main`.
    public static func yieldSharedReaders() {
        SharedReaderPriority.enabled.store(true, ordering: .relaxed)
    }
}
