import CLoadedCode

/// The code of the process and its libraries, unmapped once a phase that ran much of it is over.
///
/// A file-backed page counts in a process's resident memory while its page table maps it, and
/// the kernel maps the neighbours of every page it faults in (fault-around, 64 KiB), so start-up
/// and a big reconcile leave most of a large static binary mapped: at 100,000 photos, 16 of
/// photod's 32 MiB idle were its own code (bench/README.md, "Idle memory"). The pages stay in
/// the page cache; what runs later maps them back with a minor fault, no read from disk.
public enum CodePages {
    /// Unmaps the read-only load segments of every loaded object (objects patched at load,
    /// with text relocations, excepted); returns the bytes of address space covered.
    ///
    /// A debugger's breakpoints in code are the process's own copies of those pages, and go.
    @discardableResult
    public static func release() -> Int {
        Int(photod_release_code_pages())
    }
}
