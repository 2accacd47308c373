import PhotoAPI

/// The line `groups`, `list` and `find` add on standard error when photod answered while a
/// reconcile was still filling the index: the answer may be partial, and a person should know
/// why a photo is missing. Standard output stays what it always is; with `--json` the reply's
/// `progress` says it instead.
enum IndexingNote {
    /// "still indexing: 11,776 of 20,000 files read", or "still indexing: 11,776 files found
    /// so far" while the walk has not yet said how many files need reading.
    static func text(_ progress: ScanProgress) -> String {
        guard let total = progress.total else {
            return "still indexing: \(Thousands.grouped(progress.found)) files found so far"
        }
        return "still indexing: \(Thousands.grouped(progress.indexed)) of \(Thousands.grouped(total)) files read"
    }

    /// Writes the line to standard error (escaped, as every note), when there is progress to tell.
    static func show(_ progress: ScanProgress?) {
        guard let progress else { return }
        Output.note(text(progress))
    }
}
