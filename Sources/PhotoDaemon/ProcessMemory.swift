import CMalloc

/// glibc's malloc, held to what a daemon on a small machine needs.
///
/// glibc gives threads that contend for the heap arenas of their own, up to eight per core,
/// and each arena keeps what its threads freed. photod's threads (file readers, the index's
/// writer and readers, Swift's and NIO's) hand buffers to one another, so memory freed in one
/// arena is not reused by the next thread that allocates: measured at 100,000 photos, idle
/// RSS grew by 19 MiB over one rescan.
public enum ProcessMemory {
    /// Arenas the process may have: two, as the thread caches absorb most contention. Call it
    /// first, before threads start, so no thread has made an arena of its own yet.
    public static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
    }

    /// Returns freed memory of every arena to the system: after a reconcile, whose buffers the
    /// idle daemon does not need again.
    static func giveBack() {
        _ = malloc_trim(0)
    }
}
