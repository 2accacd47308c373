import TOML

extension ConfigLoader {
    /// `[remote_poll_intervals]`: seconds between polls for some roots, each key a root as
    /// `roots` writes it ("~" and relative paths read as there), so the key names the same
    /// folder the root does. Whether each is one of the roots is checked once flags are merged.
    func readPollIntervals(_ table: inout TableReader) throws(ConfigError) -> [String: Int] {
        var intervals: [String: Int] = [:]
        var writtenAs: [String: String] = [:]
        for key in table.table.keys {
            guard let seconds = try table.int(key, in: 1...86_400) else { continue }
            let root = filePath(key)
            if let earlier = writtenAs[root] {
                throw table.error(key, "names the same root as \"\(ShownText.of(earlier))\"")
            }
            writtenAs[root] = key
            intervals[root] = seconds
        }
        try table.rejectUnknownKeys()
        return intervals
    }

    /// Refuses a `[remote_poll_intervals]` key that is not one of the roots: a typo would
    /// otherwise leave that root polled at the default pace without a word.
    static func checkPollIntervals(of config: DaemonConfig, file: String) throws(ConfigError) {
        for root in config.remotePollIntervals.keys.sorted() where !config.roots.contains(root) {
            let near = SelectionCatalog.closest(to: root, among: config.roots).prefix(1)
            let roots = config.roots.map { "\"\(ShownText.of($0))\"" }.joined(separator: ", ")
            let hint = near.first.map { "; did you mean \"\(ShownText.of($0))\"?" } ?? ""
            throw ConfigError(file: file, key: "remote_poll_intervals",
                              problem: "\"\(ShownText.of(root))\" is not one of the roots (\(roots))\(hint)")
        }
    }
}
